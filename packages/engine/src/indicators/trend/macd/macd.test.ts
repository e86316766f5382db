import { describe, expect, it } from 'vitest';
import { Ema } from '../../average/ema/ema';
import { samplePrices, testIndicatorContract } from '../../test-indicator-contract';
import { Macd, type MacdResult, macdBatch } from './macd';

describe('MACD', () => {
  testIndicatorContract<number, MacdResult>({
    create: () => new Macd(3, 6, 4),
    inputs: samplePrices(80),
    batch: (xs) => {
      const cols = macdBatch(Float64Array.from(xs), 3, 6, 4);
      return xs.map((_, i) =>
        Number.isNaN(cols.signal[i] as number)
          ? null
          : {
              macd: cols.macd[i] as number,
              signal: cols.signal[i] as number,
              histogram: cols.histogram[i] as number,
            },
      );
    },
    badInput: Number.NaN,
  });

  it('is the difference of two EMAs with an EMA signal line', () => {
    const xs = samplePrices(40);
    const fast = new Ema(3);
    const slow = new Ema(6);
    const signal = new Ema(4);
    const macd = new Macd(3, 6, 4);
    for (const x of xs) {
      fast.add(x);
      slow.add(x);
      if (slow.isStable()) signal.add(fast.value - slow.value);
      macd.add(x);
    }
    const r = macd.getResultOrThrow();
    expect(r.macd).toBe(fast.value - slow.value);
    expect(r.signal).toBe(signal.value);
    expect(r.histogram).toBe(r.macd - r.signal);
  });

  it('rejects fast >= slow', () => {
    expect(() => new Macd(26, 12)).toThrow(/must be below slow/);
  });
});
