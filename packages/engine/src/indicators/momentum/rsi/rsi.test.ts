import { describe, expect, it } from 'vitest';
import { nullWhereNaN, samplePrices, testIndicatorContract } from '../../test-indicator-contract';
import { Rsi, rsiBatch } from './rsi';

describe('RSI', () => {
  testIndicatorContract({
    create: () => new Rsi(6),
    inputs: samplePrices(80),
    batch: (xs) => nullWhereNaN(rsiBatch(Float64Array.from(xs), 6)),
    badInput: Number.NaN,
  });

  it('matches a hand-computed Wilder RSI', () => {
    const rsi = new Rsi(2);
    // Changes: +2, -1 → avgGain 1, avgLoss 0.5 → RS 2 → 66.67
    [10, 12, 11].forEach((x) => {
      rsi.add(x);
    });
    expect(rsi.getResultOrThrow()).toBeCloseTo(100 - 100 / 3, 10);
    // Change +3: avgGain (1·1 + 3)/2 = 2, avgLoss (0.5·1 + 0)/2 = 0.25 → RS 8 → 88.89
    rsi.add(14);
    expect(rsi.value).toBeCloseTo(100 - 100 / 9, 10);
  });

  it('reads 100 when prices only rise', () => {
    const rsi = new Rsi(3);
    [1, 2, 3, 4, 5].forEach((x) => {
      rsi.add(x);
    });
    expect(rsi.value).toBe(100);
  });
});
