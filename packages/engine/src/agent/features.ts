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
 * Features of bars [from, to) in one pass over the columns (one Float64Array, no per-row allocation). Rows whose
 * window reaches before bar 0, or whose aux column is missing, hold NaN for those features.
 */
export function featureMatrix(snapshot: AgentSnapshot, from: number, to: number): FeatureMatrix {
  checkRange(snapshot, from, to);
  const cols = AGENT_FEATURE_COUNT;
  const data = new Float64Array((to - from) * cols);
  for (let i = from; i < to; i++) writeFeatureRow(snapshot, i, data, (i - from) * cols);
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

/** Writes the 25 features of bar i at out[o…o+24]: the one definition of every feature */
export function writeFeatureRow(snapshot: AgentSnapshot, i: number, out: Float64Array, o: number): void {
  const { close: c, high: h, low: l, volume: v } = snapshot.bars;
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
  if (i >= 64) {
    let sq16 = 0;
    let sq64 = 0;
    for (let k = i - 63; k <= i; k++) {
      const r = Math.log((c[k] as number) / (c[k - 1] as number));
      const r2 = r * r;
      sq64 += r2;
      if (k > i - 16) sq16 += r2;
    }
    vol16 = Math.sqrt(sq16 / 16);
    vol64 = Math.sqrt(sq64 / 64);
  } else if (i >= 16) {
    let sq16 = 0;
    for (let k = i - 15; k <= i; k++) {
      const r = Math.log((c[k] as number) / (c[k - 1] as number));
      sq16 += r * r;
    }
    vol16 = Math.sqrt(sq16 / 16);
  }
  out[o + 7] = vol16;
  out[o + 8] = vol64;
  out[o + 9] = vol64 > 0 ? vol16 / vol64 : vol64 === 0 ? 1 : NaN_;

  // Parkinson: mean of ln(H/L)² / (4 ln 2)
  if (i >= 15) {
    let s = 0;
    for (let k = i - 15; k <= i; k++) {
      const x = Math.log((h[k] as number) / (l[k] as number));
      s += x * x;
    }
    out[o + 10] = Math.sqrt(s / (16 * 4 * Math.LN2));
  } else out[o + 10] = NaN_;

  // ATR (simple mean of 14 true ranges) and Cutler's RSI over the same 14 bars
  if (i >= 14) {
    let tr = 0;
    let gain = 0;
    let loss = 0;
    for (let k = i - 13; k <= i; k++) {
      const prev = c[k - 1] as number;
      const hk = h[k] as number;
      const lk = l[k] as number;
      tr += Math.max(hk - lk, Math.abs(hk - prev), Math.abs(lk - prev));
      const d = (c[k] as number) - prev;
      if (d > 0) gain += d;
      else loss -= d;
    }
    out[o + 11] = tr / 14 / ci;
    out[o + 12] = gain + loss > 0 ? (gain - loss) / (gain + loss) : 0;
  } else {
    out[o + 11] = NaN_;
    out[o + 12] = NaN_;
  }

  out[o + 13] = (hi - li) / ci;
  out[o + 14] = hi > li ? (ci - li) / (hi - li) - 0.5 : 0;

  // Averages of the close: 16 and 64 bars; mean and spread of the last 32
  if (i >= 63) {
    let s16 = 0;
    let s32 = 0;
    let s64 = 0;
    for (let k = i - 63; k <= i; k++) {
      const x = c[k] as number;
      s64 += x;
      if (k > i - 32) s32 += x;
      if (k > i - 16) s16 += x;
    }
    out[o + 15] = ci / (s16 / 16) - 1;
    out[o + 16] = ci / (s64 / 64) - 1;
    const m32 = s32 / 32;
    let ss = 0;
    for (let k = i - 31; k <= i; k++) {
      const d = (c[k] as number) - m32;
      ss += d * d;
    }
    const sd = Math.sqrt(ss / 32);
    out[o + 17] = sd > 0 ? (ci - m32) / sd : 0;
  } else {
    out[o + 15] = i >= 15 ? ci / (sumRange(c, i - 15, i) / 16) - 1 : NaN_;
    out[o + 16] = NaN_;
    out[o + 17] = NaN_;
  }

  if (i >= 31) {
    let s = 0;
    for (let k = i - 31; k <= i; k++) s += Math.log1p(v[k] as number);
    const m = s / 32;
    let ss = 0;
    for (let k = i - 31; k <= i; k++) {
      const d = Math.log1p(v[k] as number) - m;
      ss += d * d;
    }
    const sd = Math.sqrt(ss / 32);
    out[o + 18] = sd > 0 ? (Math.log1p(v[i] as number) - m) / sd : 0;
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
