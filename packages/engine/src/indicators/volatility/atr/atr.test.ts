import { describe, expect, it } from 'vitest';
import { BarSeries } from '../../../bars/bars';
import type { BarInput } from '../../indicator';
import { nullWhereNaN, samplePrices, testIndicatorContract } from '../../test-indicator-contract';
import { Atr, atrBatch } from './atr';

function toBars(inputs: readonly BarInput[]): BarSeries {
  const s = new BarSeries(60_000, inputs.length);
  inputs.forEach((b, i) => {
    s.append(i * 60_000, b.close, b.high, b.low, b.close, b.volume);
  });
  return s;
}

const bars: BarInput[] = samplePrices(80).map((p, i) => ({
  high: p + 1 + (i % 3),
  low: p - 1 - (i % 2),
  close: p,
  volume: 10 + (i % 7),
}));

describe('ATR', () => {
  testIndicatorContract({
    create: () => new Atr(5),
    inputs: bars,
    batch: (xs) => nullWhereNaN(atrBatch(toBars(xs), 5)),
    badInput: { high: Number.NaN, low: 1, close: 1, volume: 1 },
  });

  it('matches a hand-computed Wilder ATR', () => {
    const atr = new Atr(2);
    atr.add({ high: 12, low: 10, close: 11, volume: 1 }); // TR 2
    atr.add({ high: 15, low: 12, close: 14, volume: 1 }); // TR max(3, 4, 1) = 4 → seed (2+4)/2 = 3
    expect(atr.getResultOrThrow()).toBe(3);
    atr.add({ high: 14, low: 13, close: 13, volume: 1 }); // TR max(1, 0, 1) = 1 → (3·1 + 1)/2 = 2
    expect(atr.value).toBe(2);
  });
});
