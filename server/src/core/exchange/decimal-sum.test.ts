import { describe, expect, it } from 'vitest';
import { sumDecimals } from './decimal-sum';

describe('sumDecimals', () => {
  it('adds exchange amounts exactly, where floats would drift', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumDecimals(['-1.00000001', '0.5', '12'])).toBe('11.49999999');
    expect(sumDecimals(['-0.25', '0.05'])).toBe('-0.2');
    expect(sumDecimals([])).toBe('0');
  });

  it('keeps every decimal place and large balances exact, and never answers "-0"', () => {
    expect(sumDecimals(['0.000000001', '0.000000002'])).toBe('0.000000003');
    expect(sumDecimals(['123456789012345.12345678', '0.00000001'])).toBe('123456789012345.12345679');
    expect(sumDecimals(['-0.25', '0.25'])).toBe('0');
  });

  it('refuses what is not a decimal', () => {
    expect(() => sumDecimals(['1e5'])).toThrow('not a decimal: 1e5');
    expect(() => sumDecimals(['Infinity'])).toThrow('not a decimal: Infinity');
  });
});
