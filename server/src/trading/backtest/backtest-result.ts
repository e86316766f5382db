import { KLINE_INTERVALS, type KlineInterval } from '@kestrel/contracts';
import type { BacktestCandle, BacktestMarker, BacktestTrade, EquityPoint } from '@kestrel/contracts/backtest';
import {
  type BarColumns,
  barOpenTime,
  type Fill,
  intervalToMs,
  type Metrics,
  type OrderView,
  type Trade,
} from '@kestrel/engine';

/**
 * Pure shaping of an engine run into what the API stores and serves: a downsampled equity curve, the trade list with
 * exit reasons, chart markers, and candles aggregated for the chart. Runs in the backtest worker (no I/O here).
 */

/** Equity and its drawdown from the running peak (the peak starts at the initial balance, as in the metrics) */
export function downsampleEquity(
  time: ArrayLike<number>,
  equity: ArrayLike<number>,
  initialBalance: number,
  maxPoints: number,
): EquityPoint[] {
  const n = equity.length;
  const drawdown = new Float64Array(n);
  let peak = initialBalance;
  for (let i = 0; i < n; i++) {
    const e = equity[i] as number;
    if (e > peak) peak = e;
    drawdown[i] = peak > 0 ? (peak - e) / peak : 0;
  }
  const point = (i: number): EquityPoint => ({
    time: time[i] as number,
    equity: equity[i] as number,
    drawdown: drawdown[i] as number,
  });
  if (n <= maxPoints) return Array.from({ length: n }, (_, i) => point(i));
  // Each bucket keeps its lowest and highest equity and its deepest drawdown, so no peak or trough is smoothed
  // away; plus the first and last bar
  const buckets = Math.max(1, Math.floor((maxPoints - 2) / 3));
  const keep = new Set<number>([0, n - 1]);
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * n) / buckets);
    const to = Math.floor(((b + 1) * n) / buckets);
    if (to <= from) continue;
    let lo = from;
    let hi = from;
    let deep = from;
    for (let i = from + 1; i < to; i++) {
      if ((equity[i] as number) < (equity[lo] as number)) lo = i;
      if ((equity[i] as number) > (equity[hi] as number)) hi = i;
      if ((drawdown[i] as number) > (drawdown[deep] as number)) deep = i;
    }
    keep.add(lo).add(hi).add(deep);
  }
  return [...keep].sort((a, b) => a - b).map(point);
}

const EXIT_REASON_BY_ORDER_TYPE: Partial<Record<OrderView['type'], BacktestTrade['exitReason']>> = {
  'stop-market': 'stop-loss',
  'take-profit-market': 'take-profit',
  'trailing-stop-market': 'trailing-stop',
};

/**
 * The engine's trades with an id and how they ended. A trade closes on the fill that takes the position to zero or
 * through it, so the k-th such fill closes the k-th trade, and its order type is the exit reason.
 */
export function describeTrades(
  trades: readonly Trade[],
  fills: readonly Fill[],
  orders: readonly OrderView[],
  limit: number,
): BacktestTrade[] {
  const typeOf = new Map(orders.map((o) => [o.id, o.type]));
  const closing: Fill[] = [];
  let position = 0;
  for (const fill of fills) {
    if (
      position !== 0 &&
      (fill.positionAfter === 0 || Math.sign(fill.positionAfter) !== Math.sign(position))
    ) {
      closing.push(fill);
    }
    position = fill.positionAfter;
  }
  return trades.slice(0, limit).map((t, k) => {
    const fill = closing[k];
    const exitReason: BacktestTrade['exitReason'] =
      t.liquidated || fill?.liquidity === 'liquidation'
        ? 'liquidation'
        : ((fill && EXIT_REASON_BY_ORDER_TYPE[typeOf.get(fill.orderId) ?? 'market']) ?? 'signal');
    return {
      id: k + 1,
      side: t.side,
      entryTime: t.entryTime,
      entryPrice: t.entryPrice,
      exitTime: t.exitTime,
      exitPrice: t.exitPrice,
      quantity: t.maxQuantity,
      pnl: t.netPnl,
      grossPnl: t.realizedPnl,
      fees: t.fees,
      funding: t.funding,
      exitReason,
    };
  });
}

/** An entry and an exit mark per trade, in time order */
export function tradeMarkers(trades: readonly BacktestTrade[]): BacktestMarker[] {
  const markers: BacktestMarker[] = [];
  for (const t of trades) {
    markers.push({ time: t.entryTime, price: t.entryPrice, kind: 'entry', side: t.side });
    markers.push({ time: t.exitTime, price: t.exitPrice, kind: 'exit', side: t.side });
  }
  return markers.sort((a, b) => a.time - b.time);
}

/** Chart intervals from fine to coarse: every kline interval, so a candle opens where the exchange's bar would */
const CHART_INTERVALS: readonly KlineInterval[] = KLINE_INTERVALS;

/**
 * The bars as candles, aggregated to the finest interval at least as long as `interval` that gives at most
 * `maxCandles` (1M buckets when even those are too many). Buckets open where the exchange's bars of that interval
 * open (3d on multiples of 3 days, 1w on Mondays, 1M on the 1st), so a 1d run shown as 1w candles matches a 1w chart;
 * a bar that straddles two buckets (a 3d bar across a Monday) goes to the one it opens in.
 */
export function chartCandles(
  bars: BarColumns,
  interval: KlineInterval,
  maxCandles: number,
): { interval: KlineInterval; candles: BacktestCandle[] } {
  const n = bars.openTime.length;
  const baseMs = intervalToMs(interval);
  const span = n > 0 ? (bars.openTime[n - 1] as number) - (bars.openTime[0] as number) + baseMs : 0;
  const chosen =
    CHART_INTERVALS.find((name) => {
      const ms = intervalToMs(name);
      return ms >= baseMs && Math.ceil(span / ms) + 1 <= maxCandles;
    }) ?? '1M';
  const candles: BacktestCandle[] = [];
  let current: BacktestCandle | undefined;
  for (let i = 0; i < n; i++) {
    const time =
      chosen === interval ? (bars.openTime[i] as number) : barOpenTime(chosen, bars.openTime[i] as number);
    if (!current || current.time !== time) {
      current = {
        time,
        open: bars.open[i] as number,
        high: bars.high[i] as number,
        low: bars.low[i] as number,
        close: bars.close[i] as number,
        volume: bars.volume[i] as number,
      };
      candles.push(current);
      continue;
    }
    current.high = Math.max(current.high, bars.high[i] as number);
    current.low = Math.min(current.low, bars.low[i] as number);
    current.close = bars.close[i] as number;
    current.volume += bars.volume[i] as number;
  }
  return { interval: chosen, candles };
}

/**
 * JSON has no infinities or NaN: a tiny run can annualise to Infinity. Infinities become the largest double of
 * their sign, NaN becomes 0; profitFactor keeps its null ("no losing trade")
 */
export function finiteMetrics(metrics: Metrics): Metrics {
  const out = { ...metrics };
  for (const [key, value] of Object.entries(out) as [keyof Metrics, number | null][]) {
    if (value === null || Number.isFinite(value)) continue;
    (out as Record<string, number>)[key] = Number.isNaN(value) ? 0 : Math.sign(value) * Number.MAX_VALUE;
  }
  return out;
}
