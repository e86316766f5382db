import { describe, expect, it } from 'vitest';
import { nullWhereNaN, samplePrices, testIndicatorContract } from '../../test-indicator-contract';
import { Sma, smaBatch } from './sma';

describe('SMA', () => {
  testIndicatorContract({
    create: () => new Sma(5),
    inputs: samplePrices(80),
    batch: (xs) => nullWhereNaN(smaBatch(Float64Array.from(xs), 5)),
    badInput: Number.NaN,
  });

  it('matches hand-computed means', () => {
    const sma = new Sma(3);
    [1, 2, 3, 4, 10].forEach((x) => {
      sma.add(x);
    });
    // (3 + 4 + 10) / 3
    expect(sma.getResultOrThrow()).toBeCloseTo(17 / 3, 12);
    expect(Array.from(smaBatch(Float64Array.of(1, 2, 3, 4), 3)).slice(2)).toEqual([2, 3]);
  });

  it('rejects a bad period', () => {
    expect(() => new Sma(0)).toThrow(/period must be a positive integer/);
  });
});
