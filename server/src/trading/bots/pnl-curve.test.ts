import type { BotCandle, BotFill } from '@kestrel/contracts/bots';
import { describe, expect, it } from 'vitest';
import { pnlCurve } from './pnl-curve';

const H = 3_600_000;
const candle = (i: number, close: number): BotCandle => ({
  time: i * H,
  open: close,
  high: close,
  low: close,
  close,
});
const fill = (
  time: number,
  side: 'BUY' | 'SELL',
  price: number,
  quantity: number,
  extra: Partial<BotFill> = {},
) => ({ time, side, price, quantity, fee: 0, realizedPnl: 0, positionAfter: 0, ...extra }) satisfies BotFill;

describe("a bot's PnL curve", () => {
  it('marks the open position at each close and adds each fill’s realized PnL less its fee when it happens', () => {
    const curve = pnlCurve({
      earlier: [],
      fills: [
        // Two buys average 100, half is sold at 110 (+10 realized, 0.5 fee), then all at 90
        fill(0.5 * H, 'BUY', 98, 1, { fee: 0.1 }),
        fill(0.7 * H, 'BUY', 102, 1, { fee: 0.1 }),
        fill(1.2 * H, 'SELL', 110, 1, { fee: 0.5, realizedPnl: 10 }),
        fill(3.2 * H, 'SELL', 90, 1, { fee: 0.2, realizedPnl: -10 }),
      ],
      candles: [candle(0, 104), candle(1, 108), candle(2, 95)],
      to: 3 * H,
      now: 3.5 * H,
      lastPrice: 91,
    });
    expect(curve.map((p) => p.time)).toEqual([0, H, 2 * H, 3.5 * H]);
    // Closed at 104 with 2 long at 100: +8 unrealized, −0.2 fees
    expect(curve[0]).toEqual({ time: 0, realized: -0.2, unrealized: 8, total: 7.8 });
    // One left at 100, marked at 108; realized 10 − 0.7 fees
    expect(curve[1]?.realized).toBeCloseTo(9.3, 10);
    expect(curve[1]?.unrealized).toBeCloseTo(8, 10);
    // The last fill is after the third close: still long 1, marked at 95
    expect(curve[2]?.unrealized).toBeCloseTo(-5, 10);
    // Now: flat, everything realized
    expect(curve[3]).toMatchObject({ unrealized: 0 });
    expect(curve[3]?.total).toBeCloseTo(10 - 10 - 0.9, 10);
  });

  it('starts from the fills before the window, and a fill through zero opens the rest at its price', () => {
    const curve = pnlCurve({
      earlier: [fill(-5 * H, 'BUY', 100, 1)],
      // Sells 3: closes the long 1 (+5) and opens a short 2 at 105
      fills: [fill(0.5 * H, 'SELL', 105, 3, { realizedPnl: 5 })],
      candles: [candle(0, 100)],
      to: H,
      now: H,
      lastPrice: null,
    });
    // …and without a last price, the last close marks the now point
    expect(curve).toEqual([
      { time: 0, realized: 5, unrealized: 10, total: 15 },
      { time: H, realized: 5, unrealized: 10, total: 15 },
    ]);
  });

  it('is empty without candles or a price', () => {
    expect(pnlCurve({ earlier: [], fills: [], candles: [], to: H, now: H, lastPrice: null })).toEqual([]);
  });
});
