import { describe, expect, it } from 'vitest';
import { roundToStep, StepRounder, stepDecimals } from './rounding';

describe('tick and step rounding', () => {
  it('gives the exact decimal multiple, without binary drift', () => {
    expect(roundToStep(0.1 + 0.2, 0.1)).toBe(0.3);
    expect(roundToStep(37_005.249_999, 0.1)).toBe(37_005.2);
    expect(roundToStep(1.23456, 0.001, 'down')).toBe(1.234);
    expect(roundToStep(1.2341, 0.001, 'up')).toBe(1.235);
    // 2.9999999999 means 3 steps, not 2
    expect(roundToStep(0.0029999999999, 0.001, 'down')).toBe(0.003);
    expect(new StepRounder(0.5).round(10.74)).toBe(10.5);
  });

  it('counts decimals and rejects a bad step', () => {
    expect(stepDecimals(0.001)).toBe(3);
    expect(stepDecimals(5)).toBe(0);
    expect(stepDecimals(1e-8)).toBe(8);
    expect(() => stepDecimals(0)).toThrow(/step must be a positive number/);
  });
});
