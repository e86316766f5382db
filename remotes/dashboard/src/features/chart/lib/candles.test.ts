import { describe, expect, it } from 'vitest';
import { applyCandle, type Candle, type CandlePush } from './candles';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 5, 12);
const bar = (i: number, close: number): Candle => ({
  openTime: T0 + i * MINUTE,
  closeTime: T0 + (i + 1) * MINUTE - 1,
  open: 100,
  high: 105,
  low: 95,
  close,
  volume: 10,
});
const push = (i: number, close: string): CandlePush => ({
  openTime: T0 + i * MINUTE,
  closeTime: T0 + (i + 1) * MINUTE - 1,
  open: '100',
  high: '108',
  low: '95',
  close,
  volume: '12',
});

describe('a live candle on the chart’s bars', () => {
  const candles = [bar(0, 101), bar(1, 102)];

  it('replaces the forming bar with the pushed one, leaving the bars before it as they were', () => {
    const next = applyCandle(candles, push(1, '107.5'));
    expect(next).toHaveLength(2);
    expect(next[1]).toMatchObject({ close: 107.5, high: 108, volume: 12 });
    expect(next[0]).toBe(candles[0]);
  });

  it('appends the next bar and drops the oldest, so the chart keeps its length', () => {
    const next = applyCandle(candles, push(2, '103'));
    expect(next.map((c) => [c.openTime, c.close])).toEqual([
      [T0 + MINUTE, 102],
      [T0 + 2 * MINUTE, 103],
    ]);
  });

  it('ignores a push older than the forming bar (a late one after a refetch)', () => {
    expect(applyCandle(candles, push(0, '90'))).toBe(candles);
  });
});
