import { describe, expect, it } from 'vitest';
import { samplePrices, testIndicatorContract } from '../../test-indicator-contract';
import { Bollinger, type BollingerResult, bollingerBatch } from './bollinger';

describe('Bollinger', () => {
  testIndicatorContract<number, BollingerResult>({
    create: () => new Bollinger(5, 2),
    inputs: samplePrices(80),
    batch: (xs) => {
      const c = bollingerBatch(Float64Array.from(xs), 5, 2);
      return xs.map((_, i) =>
        Number.isNaN(c.middle[i] as number)
          ? null
          : { upper: c.upper[i] as number, middle: c.middle[i] as number, lower: c.lower[i] as number },
      );
    },
    badInput: Number.NaN,
  });

  it('matches hand-computed bands', () => {
    const bb = new Bollinger(4, 2);
    // mean 5, deviations -3,-1,1,3 → variance (9+1+1+9)/4 = 5
    [2, 4, 6, 8].forEach((x) => {
      bb.add(x);
    });
    const r = bb.getResultOrThrow();
    expect(r.middle).toBe(5);
    expect(r.upper).toBeCloseTo(5 + 2 * Math.sqrt(5), 12);
    expect(r.lower).toBeCloseTo(5 - 2 * Math.sqrt(5), 12);
  });
});
