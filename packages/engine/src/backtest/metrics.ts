import type { Trade } from '../broker/orders';

const YEAR_MS = 365 * 86_400_000;
const DAY_MS = 86_400_000;

/** Summary figures of a run; ratios are fractions (0.1 = 10 %), money in the quote asset */
export interface Metrics {
  initialBalance: number;
  finalEquity: number;
  totalReturn: number;
  annualisedReturn: number;
  /** Largest peak-to-trough equity fall, as a fraction of the peak */
  maxDrawdown: number;
  /**
   * Annualised, from daily returns (per-bar returns when the run is shorter than two days or the bars are a day or
   * longer: 3d, 1w, 1M bars give 365/3, 365/7 and 12 periods a year), risk-free rate 0
   */
  sharpe: number;
  sortino: number;
  /** Annualised return / max drawdown */
  calmar: number;
  tradeCount: number;
  winRate: number;
  /** Gross profit / gross loss of closed trades; null when there was no losing trade */
  profitFactor: number | null;
  /** Share of bars with an open position */
  exposure: number;
  feesPaid: number;
  fundingPaid: number;
  liquidations: number;
  bars: number;
}

export interface MetricsInput {
  equity: Float64Array;
  /** Number of bars of `equity` that were filled */
  length: number;
  /** Bar length; 1M bars pass the nominal month (`intervalToMs('1M')`, a twelfth of 365 days): 12 bars = 1 year */
  intervalMs: number;
  initialBalance: number;
  /** The curve's maximum drawdown when it was tracked while writing it (EquityCurve); scanned from `equity` if absent */
  maxDrawdown?: number;
  /** Closed trades, or just their counts and sums (sweeps keep no trade list) */
  trades: readonly Trade[] | TradeStats;
  barsInPosition: number;
  feesPaid: number;
  fundingPaid: number;
  liquidations: number;
}

/** Counts and sums of closed trades' net PnL */
export interface TradeStats {
  count: number;
  wins: number;
  grossProfit: number;
  grossLoss: number;
}

/** Trade stats from a trade list */
export function tradeStats(trades: readonly Trade[]): TradeStats {
  const stats: TradeStats = { count: trades.length, wins: 0, grossProfit: 0, grossLoss: 0 };
  for (const t of trades) {
    if (t.netPnl > 0) {
      stats.wins++;
      stats.grossProfit += t.netPnl;
    } else stats.grossLoss -= t.netPnl;
  }
  return stats;
}

/** Computes the metrics from a per-bar equity curve and the closed trades (no allocation beyond the result) */
export function computeMetrics(input: MetricsInput): Metrics {
  const { equity, length: n, intervalMs, initialBalance, trades } = input;
  const finalEquity = n > 0 ? (equity[n - 1] as number) : initialBalance;
  const totalReturn = finalEquity / initialBalance - 1;
  const years = (n * intervalMs) / YEAR_MS;
  const annualisedReturn =
    finalEquity <= 0 ? -1 : years > 0 ? (finalEquity / initialBalance) ** (1 / years) - 1 : 0;

  const maxDrawdown = input.maxDrawdown ?? maxDrawdownOf(equity, n, initialBalance);

  // Returns sampled once a day when there are at least two days, otherwise per bar
  const step = n * intervalMs >= 2 * DAY_MS ? Math.max(1, Math.round(DAY_MS / intervalMs)) : 1;
  const periodsPerYear = YEAR_MS / (step * intervalMs);
  let prev = initialBalance;
  let count = 0;
  let sum = 0;
  let sumSq = 0;
  let downSq = 0;
  for (let i = step - 1; i < n; i += step) {
    const e = equity[i] as number;
    const r = prev > 0 ? e / prev - 1 : 0;
    sum += r;
    sumSq += r * r;
    if (r < 0) downSq += r * r;
    count++;
    prev = e;
  }
  const mean = count > 0 ? sum / count : 0;
  const variance = count > 1 ? (sumSq - count * mean * mean) / (count - 1) : 0;
  const sd = Math.sqrt(Math.max(0, variance));
  const downside = count > 0 ? Math.sqrt(downSq / count) : 0;
  const sharpe = sd > 0 ? (mean / sd) * Math.sqrt(periodsPerYear) : 0;
  const sortino = downside > 0 ? (mean / downside) * Math.sqrt(periodsPerYear) : 0;

  const stats = Array.isArray(trades) ? tradeStats(trades) : (trades as TradeStats);
  return {
    initialBalance,
    finalEquity,
    totalReturn,
    annualisedReturn,
    maxDrawdown,
    sharpe,
    sortino,
    calmar: maxDrawdown > 0 ? annualisedReturn / maxDrawdown : 0,
    tradeCount: stats.count,
    winRate: stats.count > 0 ? stats.wins / stats.count : 0,
    profitFactor: stats.grossLoss > 0 ? stats.grossProfit / stats.grossLoss : null,
    exposure: n > 0 ? input.barsInPosition / n : 0,
    feesPaid: input.feesPaid,
    fundingPaid: input.fundingPaid,
    liquidations: input.liquidations,
    bars: n,
  };
}

/**
 * Largest peak-to-trough fall as a fraction of the peak. A leaf function with nothing after its loop, so V8's
 * optimised code for it stays valid across calls (long loops in big once-called functions keep deoptimising).
 * Branch-free (Math.max compiles to a max instruction): on a falling curve a new worst point comes every few bars
 * and the branchy form mispredicted at half its bars. EquityCurve tracks the same figure with the same arithmetic.
 */
function maxDrawdownOf(equity: Float64Array, n: number, initial: number): number {
  let peak = initial;
  let maxDrawdown = 0;
  for (let i = 0; i < n; i++) {
    const e = equity[i] as number;
    peak = Math.max(peak, e);
    maxDrawdown = Math.max(maxDrawdown, (peak - e) / peak);
  }
  return maxDrawdown;
}
