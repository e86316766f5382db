import { describe, expect, it } from 'vitest';
import { BarSeries } from '../../../bars/bars';
import type { BarInput } from '../../indicator';
import { nullWhereNaN, samplePrices, testIndicatorContract } from '../../test-indicator-contract';
import { Vwap, vwapBatch } from './vwap';

const bars: BarInput[] = samplePrices(60).map((p, i) => ({
  high: p + 1,
  low: p - 1,
  close: p,
  volume: 5 + (i % 4),
}));

describe('VWAP', () => {
  testIndicatorContract({
    create: () => new Vwap(),
    inputs: bars,
    batch: (xs) => {
      const s = new BarSeries(60_000, xs.length);
      xs.forEach((b, i) => {
        s.append(i * 60_000, b.close, b.high, b.low, b.close, b.volume);
      });
      return nullWhereNaN(vwapBatch(s));
    },
    badInput: { high: 1, low: 1, close: 1, volume: Number.NaN },
  });

  it('weights typical prices by volume', () => {
    const v = new Vwap();
    v.add({ high: 12, low: 9, close: 9, volume: 1 }); // typical 10
    v.add({ high: 21, low: 19, close: 20, volume: 3 }); // typical 20
    expect(v.getResultOrThrow()).toBe((10 + 60) / 4);
  });
});
