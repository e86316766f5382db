import type { Fill, OrderView, Trade } from '@kestrel/engine';
import { describe, expect, it } from 'vitest';
import { chartCandles, describeTrades, downsampleEquity, tradeMarkers } from './backtest-result';

const fill = (over: Partial<Fill>): Fill => ({
  orderId: 1,
  tag: '',
  time: 0,
  barIndex: 0,
  side: 'buy',
  quantity: 1,
  price: 100,
  fee: 0,
  liquidity: 'taker',
  realizedPnl: 0,
  positionAfter: 1,
  ...over,
});
const order = (id: number, type: OrderView['type']) => ({ id, type }) as OrderView;
const trade = (over: Partial<Trade>): Trade => ({
  side: 'short',
  entryTime: 0,
  exitTime: 1,
  entryPrice: 100,
  exitPrice: 110,
  maxQuantity: 1,
  realizedPnl: 10,
  fees: 1,
  funding: 0.5,
  netPnl: 8.5,
  liquidated: false,
  ...over,
});

describe('downsampleEquity', () => {
  it('keeps every bar when there are few, with the drawdown from the running peak', () => {
    const points = downsampleEquity([0, 1, 2, 3], [100, 120, 90, 130], 100, 10);
    expect(points).toEqual([
      { time: 0, equity: 100, drawdown: 0 },
      { time: 1, equity: 120, drawdown: 0 },
      { time: 2, equity: 90, drawdown: 0.25 },
      { time: 3, equity: 130, drawdown: 0 },
    ]);
  });

  it('thins a long curve to the limit but keeps its peak, its trough, the first and the last bar', () => {
    const n = 100_000;
    const time = Array.from({ length: n }, (_, i) => i * 60_000);
    const equity = Array.from({ length: n }, (_, i) => 1000 + Math.sin(i / 500) * 10);
    equity[31_337] = 5000;
    equity[77_777] = 1;
    const points = downsampleEquity(time, equity, 1000, 2000);
    expect(points.length).toBeLessThanOrEqual(2000);
    expect(points.length).toBeGreaterThan(1000);
    const times = points.map((p) => p.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(points[0]?.time).toBe(0);
    expect(points.at(-1)?.time).toBe((n - 1) * 60_000);
    expect(Math.max(...points.map((p) => p.equity))).toBe(5000);
    expect(Math.min(...points.map((p) => p.equity))).toBe(1);
    expect(Math.max(...points.map((p) => p.drawdown))).toBeCloseTo((5000 - 1) / 5000, 12);
  });
});

describe('describeTrades', () => {
  it("takes each trade's exit reason from its closing fill", () => {
    const fills = [
      fill({ orderId: 1, side: 'buy', positionAfter: 1 }),
      fill({ orderId: 2, side: 'sell', positionAfter: 0, time: 5 }), // closes a long by stop
      fill({ orderId: 3, side: 'sell', positionAfter: -2 }),
      fill({ orderId: 4, side: 'buy', positionAfter: -1 }), // partial close: not the end of the trade
      fill({ orderId: 5, side: 'buy', positionAfter: 1 }), // flips: closes the short (take-profit)
      fill({ orderId: 0, side: 'sell', positionAfter: 0, liquidity: 'liquidation' }),
      fill({ orderId: 6, side: 'sell', positionAfter: -1 }),
      fill({ orderId: 7, side: 'buy', positionAfter: 0 }), // market close
    ];
    const orders = [
      order(1, 'market'),
      order(2, 'stop-market'),
      order(3, 'limit'),
      order(4, 'limit'),
      order(5, 'take-profit-market'),
      order(6, 'market'),
      order(7, 'market'),
    ];
    const trades = [
      trade({ side: 'long' }),
      trade({ side: 'short' }),
      trade({ side: 'long', liquidated: true }),
      trade({ side: 'short' }),
    ];
    const out = describeTrades(trades, fills, orders, 10);
    expect(out.map((t) => [t.id, t.side, t.exitReason])).toEqual([
      [1, 'long', 'stop-loss'],
      [2, 'short', 'take-profit'],
      [3, 'long', 'liquidation'],
      [4, 'short', 'signal'],
    ]);
    expect(out[0]).toMatchObject({ quantity: 1, pnl: 8.5, grossPnl: 10, fees: 1, funding: 0.5 });
    expect(describeTrades(trades, fills, orders, 2)).toHaveLength(2);
  });

  it('marks each entry and exit, in time order', () => {
    const [t1] = describeTrades(
      [trade({ entryTime: 10, exitTime: 20 })],
      [fill({ positionAfter: -1, side: 'sell' }), fill({ positionAfter: 0, side: 'buy' })],
      [],
      5,
    );
    expect(tradeMarkers(t1 ? [t1] : [])).toEqual([
      { time: 10, price: 100, kind: 'entry', side: 'short' },
      { time: 20, price: 110, kind: 'exit', side: 'short' },
    ]);
  });
});

describe('chartCandles', () => {
  const bars = (n: number, intervalMs: number) => {
    const openTime = Float64Array.from({ length: n }, (_, i) => i * intervalMs);
    return {
      openTime,
      open: openTime.map((_, i) => 100 + i),
      high: openTime.map((_, i) => 101 + i),
      low: openTime.map((_, i) => 99 + i),
      close: openTime.map((_, i) => 100.5 + i),
      volume: openTime.map(() => 2),
    };
  };

  it('returns the bars as they are when they fit', () => {
    const out = chartCandles(bars(10, 60_000), '1m', 5000);
    expect(out.interval).toBe('1m');
    expect(out.candles).toHaveLength(10);
    expect(out.candles[3]).toEqual({
      time: 180_000,
      open: 103,
      high: 104,
      low: 102,
      close: 103.5,
      volume: 2,
    });
  });

  it('aggregates to the finest interval that fits the limit', () => {
    // 10 000 one-minute bars: 3m would give 3334 candles, within 5000
    const out = chartCandles(bars(10_000, 60_000), '1m', 5000);
    expect(out.interval).toBe('3m');
    expect(out.candles).toHaveLength(3334);
    expect(out.candles[1]).toEqual({
      time: 180_000,
      open: 103,
      high: 106,
      low: 102,
      close: 105.5,
      volume: 6,
    });
  });

  it('aggregates daily bars into weeks that open on Monday and months that open on the 1st', () => {
    const day = 86_400_000;
    // 60 days from Thursday 1 January 2026, 10 candles at most: weeks give 10 (a partial first week), so 1w
    const start = Date.UTC(2026, 0, 1);
    const daily = bars(60, day);
    daily.openTime = daily.openTime.map((t) => start + t);
    const weekly = chartCandles(daily, '1d', 10);
    expect(weekly.interval).toBe('1w');
    expect(weekly.candles.map((c) => new Date(c.time).toISOString().slice(0, 10))).toEqual([
      '2025-12-29',
      '2026-01-05',
      '2026-01-12',
      '2026-01-19',
      '2026-01-26',
      '2026-02-02',
      '2026-02-09',
      '2026-02-16',
      '2026-02-23',
    ]);
    // The partial first week: Thursday 1 to Sunday 4 January (bars 0..3)
    expect(weekly.candles[0]).toMatchObject({ open: 100, close: 103.5, high: 104, low: 99, volume: 8 });

    const monthly = chartCandles(daily, '1d', 4);
    expect(monthly.interval).toBe('1M');
    expect(monthly.candles.map((c) => c.time)).toEqual([
      Date.UTC(2026, 0, 1),
      Date.UTC(2026, 1, 1),
      Date.UTC(2026, 2, 1),
    ]);
    // January is bars 0..30, February 31..58, March 1st is bar 59
    expect(monthly.candles[1]).toMatchObject({ open: 131, close: 158.5, volume: 56 });
  });

  it('keeps 1M bars as they are, at their own open times', () => {
    const openTime = [Date.UTC(2025, 0, 1), Date.UTC(2025, 1, 1), Date.UTC(2025, 2, 1)];
    const out = chartCandles({ ...bars(3, 1), openTime: Float64Array.from(openTime) }, '1M', 5000);
    expect(out.interval).toBe('1M');
    expect(out.candles.map((c) => c.time)).toEqual(openTime);
  });
});
