import { describe, expect, it } from 'vitest';
import { compareDecimal, isDecimal, isMultipleOf, multiplyDecimal } from './decimal';

describe('decimal strings', () => {
  it('knows a multiple of a step exactly, where floats would not', () => {
    expect(isMultipleOf('0.3', '0.1')).toBe(true);
    expect(isMultipleOf('65000.30', '0.10')).toBe(true);
    expect(isMultipleOf('65000.35', '0.10')).toBe(false);
    expect(isMultipleOf('0.0105', '0.001')).toBe(false);
    expect(isMultipleOf('3', '1')).toBe(true);
  });

  it('compares and multiplies without rounding', () => {
    expect(compareDecimal('0.001', '0.0010')).toBe(0);
    expect(compareDecimal('99.99', '100')).toBe(-1);
    expect(compareDecimal('1000.5', '1000')).toBe(1);
    expect(multiplyDecimal('65000.1', '0.001')).toBe('65.0001');
    expect(multiplyDecimal('3', '0.5')).toBe('1.5');
    expect(multiplyDecimal('20', '5')).toBe('100');
  });

  it('accepts only unsigned decimal strings', () => {
    expect(isDecimal('0.010')).toBe(true);
    expect(isDecimal('-1')).toBe(false);
    expect(isDecimal('1e3')).toBe(false);
    expect(isDecimal('')).toBe(false);
  });
});
