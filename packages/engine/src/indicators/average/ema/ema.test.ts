import { describe, expect, it } from 'vitest';
import { nullWhereNaN, samplePrices, testIndicatorContract } from '../../test-indicator-contract';
import { Ema, emaBatch } from './ema';

describe('EMA', () => {
  testIndicatorContract({
    create: () => new Ema(4),
    inputs: samplePrices(80),
    batch: (xs) => nullWhereNaN(emaBatch(Float64Array.from(xs), 4)),
    badInput: Number.POSITIVE_INFINITY,
  });

  it('seeds with the SMA and then smooths with 2/(n+1)', () => {
    const ema = new Ema(3); // k = 0.5
    [2, 4, 6].forEach((x) => {
      ema.add(x);
    });
    expect(ema.getResultOrThrow()).toBe(4);
    ema.add(10); // (10 - 4) * 0.5 + 4
    expect(ema.value).toBe(7);
    ema.add(1); // (1 - 7) * 0.5 + 7
    expect(ema.value).toBe(4);
  });
});
