import { assertFinite, EngineInputError } from '../errors';
import { StepRounder } from '../math/rounding';
import { createRandom } from '../random/prng';
import { intervalToMs } from './intervals';

/**
 * The bars as columns, oldest first: one Float64Array per field, bar i at index i of each. The one shape bars have
 * wherever they travel as columns (the kline cache's reads, worker messages, shared memory of a sweep).
 */
export interface BarColumns {
  openTime: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

const COLUMN_NAMES = ['openTime', 'open', 'high', 'low', 'close', 'volume'] as const;

/**
 * Columnar OHLCV bars: one Float64Array per field, so the hot loop reads contiguous numbers and never allocates.
 *
 * The same class serves backtests (filled once, `length === capacity`) and live runs (bars appended as they
 * close; the arrays grow by doubling, so read them through the series, not through a saved array reference).
 */
export class BarSeries implements BarColumns {
  /**
   * A series over existing columns (views, no copy: a worker's transferred or shared columns). The bars are taken
   * as they are, without `append`'s checks: they come from a series or a cache that made them.
   */
  static fromColumns(intervalMs: number, columns: BarColumns): BarSeries {
    const n = columns.openTime.length;
    for (const name of COLUMN_NAMES) {
      if (columns[name].length !== n) {
        throw new EngineInputError(
          `bar column ${name} has ${columns[name].length} values, openTime has ${n}`,
        );
      }
    }
    const series = new BarSeries(intervalMs, 1);
    series.openTime = columns.openTime;
    series.open = columns.open;
    series.high = columns.high;
    series.low = columns.low;
    series.close = columns.close;
    series.volume = columns.volume;
    series.length = n;
    return series;
  }

  length = 0;
  openTime: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;

  constructor(
    /** Bar length in milliseconds (60_000 for 1m; for 1M bars, which vary, the nominal month of `intervalToMs`) */
    readonly intervalMs: number,
    capacity = 1024,
  ) {
    if (!(intervalMs > 0)) throw new EngineInputError(`intervalMs must be positive, got ${intervalMs}`);
    const size = Math.max(1, capacity);
    this.openTime = new Float64Array(size);
    this.open = new Float64Array(size);
    this.high = new Float64Array(size);
    this.low = new Float64Array(size);
    this.close = new Float64Array(size);
    this.volume = new Float64Array(size);
  }

  /** Appends one closed bar after checking it is finite, consistent and later than the previous one */
  append(openTime: number, open: number, high: number, low: number, close: number, volume: number): void {
    const i = this.length;
    assertFinite(openTime, `bar ${i} openTime`);
    assertFinite(open, `bar ${i} open`);
    assertFinite(high, `bar ${i} high`);
    assertFinite(low, `bar ${i} low`);
    assertFinite(close, `bar ${i} close`);
    assertFinite(volume, `bar ${i} volume`);
    if (!(low > 0)) throw new EngineInputError(`bar ${i} low must be positive, got ${low}`);
    if (high < Math.max(open, close) || low > Math.min(open, close)) {
      throw new EngineInputError(
        `bar ${i} high/low must contain open and close (o=${open} h=${high} l=${low} c=${close})`,
      );
    }
    if (volume < 0) throw new EngineInputError(`bar ${i} volume must not be negative, got ${volume}`);
    if (i > 0 && !(openTime > (this.openTime[i - 1] as number))) {
      throw new EngineInputError(`bar ${i} openTime ${openTime} is not after the previous bar's`);
    }
    if (i === this.openTime.length) this.grow();
    this.openTime[i] = openTime;
    this.open[i] = open;
    this.high[i] = high;
    this.low[i] = low;
    this.close[i] = close;
    this.volume[i] = volume;
    this.length = i + 1;
  }

  /**
   * The newest bar again with its final figures (a forming bar that has now closed), checked as `append` checks a
   * bar; its open time must be the newest bar's
   */
  replaceLast(
    openTime: number,
    open: number,
    high: number,
    low: number,
    close: number,
    volume: number,
  ): void {
    const i = this.length - 1;
    if (i < 0 || this.openTime[i] !== openTime) {
      throw new EngineInputError(`bar ${openTime} is not the newest bar of the series`);
    }
    this.length = i;
    try {
      this.append(openTime, open, high, low, close, volume);
    } finally {
      // A refused correction keeps the bar as it was
      this.length = i + 1;
    }
  }

  /** A copy of bars [start, end) as a new series (walk-forward windows) */
  slice(start: number, end: number): BarSeries {
    const from = Math.max(0, start);
    const to = Math.min(this.length, end);
    const out = new BarSeries(this.intervalMs, Math.max(1, to - from));
    out.openTime.set(this.openTime.subarray(from, to));
    out.open.set(this.open.subarray(from, to));
    out.high.set(this.high.subarray(from, to));
    out.low.set(this.low.subarray(from, to));
    out.close.set(this.close.subarray(from, to));
    out.volume.set(this.volume.subarray(from, to));
    out.length = Math.max(0, to - from);
    return out;
  }

  private grow(): void {
    const size = this.openTime.length * 2;
    const grow = (a: Float64Array) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.openTime = grow(this.openTime);
    this.open = grow(this.open);
    this.high = grow(this.high);
    this.low = grow(this.low);
    this.close = grow(this.close);
    this.volume = grow(this.volume);
  }
}

/** One row of Binance `GET /fapi/v1/klines`: `[openTime,"o","h","l","c","vol",closeTime,…]` */
export type KlineRow = readonly [number, string, string, string, string, string, ...unknown[]];

/** Loads Binance kline rows (strings for prices, as the exchange sends them) into a columnar series */
export function barsFromKlines(rows: readonly KlineRow[], interval: string): BarSeries {
  const series = new BarSeries(intervalToMs(interval), rows.length);
  rows.forEach((row, i) => {
    if (!Array.isArray(row) || row.length < 6)
      throw new EngineInputError(`kline ${i} must be an array of at least 6 fields`);
    series.append(row[0], Number(row[1]), Number(row[2]), Number(row[3]), Number(row[4]), Number(row[5]));
  });
  return series;
}

/** Options of the synthetic bar generator used by tests and benchmarks */
export interface SyntheticBarsOptions {
  seed: number;
  count: number;
  startTime?: number;
  intervalMs?: number;
  startPrice?: number;
  /** Standard deviation of the per-bar log return */
  volatility?: number;
  /** Tick the prices are rounded to */
  tickSize?: number;
}

/** A seeded random walk (log-normal), rounded to the tick: identical bars for the same seed */
export function generateBars(options: SyntheticBarsOptions): BarSeries {
  const { seed, count } = options;
  const intervalMs = options.intervalMs ?? 60_000;
  const tick = options.tickSize ?? 0.1;
  const vol = options.volatility ?? 0.001;
  let time = options.startTime ?? Date.UTC(2025, 0, 1);
  let price = options.startPrice ?? 50_000;
  const random = createRandom(seed);
  const series = new BarSeries(intervalMs, count);
  const { openTime, open, high, low, close, volume } = series;
  const rounder = new StepRounder(tick);
  // Exact tick multiples, as the exchange would print them
  const round = (x: number) => Math.max(tick, rounder.round(x));
  for (let i = 0; i < count; i++) {
    const o = round(price);
    const c = round(o * Math.exp(vol * random.normal()));
    const h = round(Math.max(o, c) + round(o * vol * random.next()));
    const l = round(Math.min(o, c) - round(o * vol * random.next()));
    openTime[i] = time;
    open[i] = o;
    high[i] = h;
    low[i] = l;
    close[i] = c;
    volume[i] = 1 + 100 * random.next();
    time += intervalMs;
    price = c;
  }
  series.length = count;
  return series;
}
