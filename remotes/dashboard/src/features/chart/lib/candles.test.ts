import { describe, expect, it } from 'vitest';
import { applyPrice, type Candle } from './candles';

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

describe('a live price on the candles', () => {
  const candles = [bar(0, 101), bar(1, 102)];

  it('closes the forming bar at it, stretching its high or low', () => {
    const up = applyPrice(candles, 107, T0 + MINUTE + 10_000);
    expect(up.kind === 'updated' && up.candles[1]).toMatchObject({
      close: 107,
      high: 107,
      low: 95,
      open: 100,
    });
    const down = applyPrice(candles, 90, T0 + MINUTE + 10_000);
    expect(down.kind === 'updated' && down.candles[1]).toMatchObject({ close: 90, high: 105, low: 90 });
    // The bars before the forming one are untouched
    expect(up.kind === 'updated' && up.candles[0]).toBe(candles[0]);
  });

  it('past the forming bar, asks for the bars again rather than guessing the new one', () => {
    expect(applyPrice(candles, 103, T0 + 2 * MINUTE).kind).toBe('rolled');
  });

  it('ignores a price older than the forming bar, and any price without bars', () => {
    expect(applyPrice(candles, 103, T0 + 30_000).kind).toBe('ignored');
    expect(applyPrice([], 103, T0).kind).toBe('ignored');
  });
});
