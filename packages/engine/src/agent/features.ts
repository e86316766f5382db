import { EngineInputError } from '../errors';
import type { AgentFeatureSpec, AgentSnapshot } from './types';

/**
 * The agent's features. Each row t is computed from bars [t − FEATURE_LOOKBACK, t] only, directly (no running sums
 * carried from earlier rows), so a row is the same double whether it is computed alone, inside a matrix that starts
 * anywhere, or on a snapshot cut at t: the point-in-time test holds this exactly. Windows are simple means (Cutler's
 * RSI, a simple-mean ATR) for the same reason: an exponential average would depend on where it started.
 */
export const AGENT_FEATURES: readonly AgentFeatureSpec[] = Object.freeze([
  { id: 'ret_1', label: 'Log return of the last bar' },
  { id: 'ret_2', label: 'Log return over the last 2 bars' },
  { id: 'ret_4', label: 'Log return over the last 4 bars' },
  { id: 'ret_8', label: 'Log return over the last 8 bars' },
  { id: 'ret_16', label: 'Log return over the last 16 bars' },
  { id: 'ret_32', label: 'Log return over the last 32 bars' },
  { id: 'ret_64', label: 'Log return over the last 64 bars' },
  { id: 'vol_16', label: 'Realised volatility of bar returns, last 16 bars' },
  { id: 'vol_64', label: 'Realised volatility of bar returns, last 64 bars' },
  { id: 'vol_ratio', label: 'Short against long realised volatility (16 / 64 bars)' },
  { id: 'hl_vol_16', label: 'High-low (Parkinson) volatility, last 16 bars' },
  { id: 'atr_pct_14', label: 'Average true range of 14 bars, as a fraction of the close' },
  { id: 'rsi_14', label: 'RSI of 14 bars, centred ((RSI − 50) / 50)' },
  { id: 'range_pct', label: "The last bar's high-low range, as a fraction of the close" },
  { id: 'close_pos', label: "Where the last close sits in its bar's range (−0.5 low … +0.5 high)" },
  { id: 'sma_gap_16', label: 'Close against its 16-bar average' },
  { id: 'sma_gap_64', label: 'Close against its 64-bar average' },
  { id: 'close_z_32', label: 'Z-score of the close within the last 32 closes' },
  { id: 'volume_z_32', label: 'Z-score of log volume within the last 32 bars' },
  { id: 'funding', label: 'Funding rate last published', needs: 'fundingRate' },
  { id: 'oi_change_1', label: 'Open interest change over the last bar (log)', needs: 'openInterest' },
  { id: 'oi_change_16', label: 'Open interest change over the last 16 bars (log)', needs: 'openInterest' },
  { id: 'basis', label: 'Mark price against index price (basis)', needs: 'markPrice' },
  { id: 'btc_ret_1', label: "BTCUSDT's log return over the last bar", needs: 'btcClose' },
  { id: 'btc_ret_16', label: "BTCUSDT's log return over the last 16 bars", needs: 'btcClose' },
] as AgentFeatureSpec[]);

export const AGENT_FEATURE_COUNT = AGENT_FEATURES.length;
export const AGENT_FEATURE_IDS: readonly string[] = Object.freeze(AGENT_FEATURES.map((f) => f.id));

/** Bars before a row that its features read: the first complete row is this index */
export const FEATURE_LOOKBACK = 64;

/** Column of the ATR feature: the decision's stop distance reads it */
export const ATR_FEATURE = AGENT_FEATURE_IDS.indexOf('atr_pct_14');

/** Features of rows [from, to), row-major: row r's feature j at `data[r * cols + j]` */
export interface FeatureMatrix {
  data: Float64Array;
  rows: number;
  cols: number;
  /** Index in the snapshot of row 0 */
  from: number;
}

function checkRange(snapshot: AgentSnapshot, from: number, to: number): void {
  if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 0 && from <= to && to <= snapshot.length)) {
    throw new EngineInputError(
      `feature rows [${from}, ${to}) are outside the snapshot's ${snapshot.length} bars`,
    );
  }
}

/**
 * Per-bar terms the windows sum, each a function of bar k and bar k − 1 only (so a row built from them is the same
 * double whatever range they were computed for): log return, log volume, squared log high/low, true range, close
 * change. Computed once per bar instead of once per window that reads it (a row reads ~150 of them).
 */
export class BarTerms {
  readonly from: number;
  readonly lr: Float64Array;
  readonly lv: Float64Array;
  readonly hl2: Float64Array;
  readonly tr: Float64Array;
  readonly diff: Float64Array;
  constructor(snapshot: AgentSnapshot, from: number, to: number) {
    const start = Math.max(0, from);
    const len = Math.max(0, to - start);
    this.from = start;
    this.lr = new Float64Array(len);
    this.lv = new Float64Array(len);
    this.hl2 = new Float64Array(len);
    this.tr = new Float64Array(len);
    this.diff = new Float64Array(len);
    const { close: c, high: h, low: l, volume: v } = snapshot.bars;
    for (let k = start; k < start + len; k++) {
      const j = k - start;
      const hk = h[k] as number;
      const lk = l[k] as number;
      const x = Math.log(hk / lk);
      this.hl2[j] = x * x;
      this.lv[j] = Math.log1p(v[k] as number);
      if (k === 0) {
        this.lr[j] = Number.NaN;
        this.tr[j] = Number.NaN;
        this.diff[j] = Number.NaN;
        continue;
      }
      const prev = c[k - 1] as number;
      const ck = c[k] as number;
      this.lr[j] = Math.log(ck / prev);
      this.tr[j] = Math.max(hk - lk, Math.abs(hk - prev), Math.abs(lk - prev));
      this.diff[j] = ck - prev;
    }
  }
}

/**
 * Features of bars [from, to) in one pass over the columns (one Float64Array, no per-row allocation). Rows whose
 * window reaches before bar 0, or whose aux column is missing, hold NaN for those features.
 */
export function featureMatrix(snapshot: AgentSnapshot, from: number, to: number): FeatureMatrix {
  checkRange(snapshot, from, to);
  const cols = AGENT_FEATURE_COUNT;
  const data = new Float64Array((to - from) * cols);
  const terms = new BarTerms(snapshot, from - FEATURE_LOOKBACK, to);
  for (let i = from; i < to; i++) writeFeatureRow(snapshot, i, data, (i - from) * cols, terms);
  return { data, rows: to - from, cols, from };
}

/** The features of bar `index` alone, equal double for double to that row of any `featureMatrix` */
export function featureRow(snapshot: AgentSnapshot, index: number): Float64Array {
  checkRange(snapshot, index, index + 1);
  const out = new Float64Array(AGENT_FEATURE_COUNT);
  writeFeatureRow(snapshot, index, out, 0);
  return out;
}

const NaN_ = Number.NaN;

function logReturn(c: Float64Array, i: number, k: number): number {
  return i >= k ? Math.log((c[i] as number) / (c[i - k] as number)) : NaN_;
}

/**
 * Writes the 25 features of bar i at out[o…o+24]: the one definition of every feature. `terms` must cover bars
 * [i − FEATURE_LOOKBACK, i] (clipped at 0); without it they are computed for this row.
 */
export function writeFeatureRow(
  snapshot: AgentSnapshot,
  i: number,
  out: Float64Array,
  o: number,
  terms: BarTerms = new BarTerms(snapshot, i - FEATURE_LOOKBACK, i + 1),
): void {
  const { close: c, high: h, low: l } = snapshot.bars;
  const { lr, lv, hl2, tr, diff } = terms;
  const b = terms.from;
  const ci = c[i] as number;
  const hi = h[i] as number;
  const li = l[i] as number;
  out[o] = logReturn(c, i, 1);
  out[o + 1] = logReturn(c, i, 2);
  out[o + 2] = logReturn(c, i, 4);
  out[o + 3] = logReturn(c, i, 8);
  out[o + 4] = logReturn(c, i, 16);
  out[o + 5] = logReturn(c, i, 32);
  out[o + 6] = logReturn(c, i, 64);

  // Realised volatility: root mean square of bar log returns (no demeaning: the mean is noise at these lengths)
  let vol16 = NaN_;
  let vol64 = NaN_;
  if (i >= 16) {
    let sq16 = 0;
    for (let k = i - 15 - b; k <= i - b; k++) {
      const r = lr[k] as number;
      sq16 += r * r;
    }
    vol16 = Math.sqrt(sq16 / 16);
  }
  if (i >= 64) {
    let sq64 = 0;
    for (let k = i - 63 - b; k <= i - b; k++) {
      const r = lr[k] as number;
      sq64 += r * r;
    }
    vol64 = Math.sqrt(sq64 / 64);
  }
  out[o + 7] = vol16;
  out[o + 8] = vol64;
  out[o + 9] = vol64 > 0 ? vol16 / vol64 : vol64 === 0 ? 1 : NaN_;

  // Parkinson: mean of ln(H/L)² / (4 ln 2)
  if (i >= 15) {
    let s = 0;
    for (let k = i - 15 - b; k <= i - b; k++) s += hl2[k] as number;
    out[o + 10] = Math.sqrt(s / (16 * 4 * Math.LN2));
  } else out[o + 10] = NaN_;

  // ATR (simple mean of 14 true ranges) and Cutler's RSI over the same 14 bars
  if (i >= 14) {
    let sumTr = 0;
    let gain = 0;
    let loss = 0;
    for (let k = i - 13 - b; k <= i - b; k++) {
      sumTr += tr[k] as number;
      const d = diff[k] as number;
      if (d > 0) gain += d;
      else loss -= d;
    }
    out[o + 11] = sumTr / 14 / ci;
    out[o + 12] = gain + loss > 0 ? (gain - loss) / (gain + loss) : 0;
  } else {
    out[o + 11] = NaN_;
    out[o + 12] = NaN_;
  }

  out[o + 13] = (hi - li) / ci;
  out[o + 14] = hi > li ? (ci - li) / (hi - li) - 0.5 : 0;

  // Averages of the close: 16 and 64 bars; mean and spread of the last 32
  out[o + 15] = i >= 15 ? ci / (sumRange(c, i - 15, i) / 16) - 1 : NaN_;
  out[o + 16] = i >= 63 ? ci / (sumRange(c, i - 63, i) / 64) - 1 : NaN_;
  if (i >= 31) {
    const m32 = sumRange(c, i - 31, i) / 32;
    let ss = 0;
    for (let k = i - 31; k <= i; k++) {
      const d = (c[k] as number) - m32;
      ss += d * d;
    }
    const sd = Math.sqrt(ss / 32);
    out[o + 17] = sd > 0 ? (ci - m32) / sd : 0;
  } else out[o + 17] = NaN_;

  if (i >= 31) {
    const m = sumRange(lv, i - 31 - b, i - b) / 32;
    let ss = 0;
    for (let k = i - 31 - b; k <= i - b; k++) {
      const d = (lv[k] as number) - m;
      ss += d * d;
    }
    const sd = Math.sqrt(ss / 32);
    out[o + 18] = sd > 0 ? ((lv[i - b] as number) - m) / sd : 0;
  } else out[o + 18] = NaN_;

  const { fundingRate, openInterest, markPrice, indexPrice, btcClose } = snapshot.aux;
  out[o + 19] = fundingRate ? (fundingRate[i] as number) : NaN_;
  out[o + 20] = openInterest ? logReturn(openInterest, i, 1) : NaN_;
  out[o + 21] = openInterest ? logReturn(openInterest, i, 16) : NaN_;
  out[o + 22] = markPrice && indexPrice ? (markPrice[i] as number) / (indexPrice[i] as number) - 1 : NaN_;
  out[o + 23] = btcClose ? logReturn(btcClose, i, 1) : NaN_;
  out[o + 24] = btcClose ? logReturn(btcClose, i, 16) : NaN_;
  // A zero or missing value in a column (no open interest yet, a gap) is not a feature value: NaN, imputed later
  for (let j = 0; j < AGENT_FEATURE_COUNT; j++) {
    if (!Number.isFinite(out[o + j] as number)) out[o + j] = NaN_;
  }
}

function sumRange(a: Float64Array, from: number, to: number): number {
  let s = 0;
  for (let k = from; k <= to; k++) s += a[k] as number;
  return s;
}
