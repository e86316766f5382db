import { hash32, Rng } from '../common/rng';
import type { SymbolSpec } from '../common/symbols';

export const MINUTE_MS = 60_000;

/** One 1-minute bar in plain numbers; formatting to Binance's strings happens at the edge */
export interface MinuteBar {
  openTime: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  quoteVolume: number;
  trades: number;
  takerBuyBase: number;
  takerBuyQuote: number;
}

/**
 * Volatility regimes, per-minute sigma of log returns and mean stay in minutes. Calm nights, normal days, busy
 * sessions and short stress bursts: the mix gives ~50% annualised volatility with fat-tailed minute returns.
 */
const REGIMES = [
  { sigma: 0.00025, meanStay: 600 },
  { sigma: 0.0006, meanStay: 480 },
  { sigma: 0.0014, meanStay: 150 },
  { sigma: 0.0035, meanStay: 25 },
] as const;
// Row = from, column = to (probabilities when a switch happens); stress only follows a busy spell
const SWITCH = [
  [0, 0.85, 0.15, 0],
  [0.45, 0, 0.5, 0.05],
  [0.1, 0.7, 0, 0.2],
  [0, 0.3, 0.7, 0],
] as const;
const NORMAL_SIGMA = REGIMES[1].sigma;
// Pull towards the start price with a ~30-day time constant so a year-long path stays in a plausible band
const MEAN_REVERSION = 1 / (30 * 1440);

/** Source of prices for one symbol; the simulator only needs these four questions answered */
export interface PriceSource {
  readonly spec: SymbolSpec;
  /** First minute (epoch ms) with data */
  readonly firstOpenTime: number;
  /** Contract (last trade) price at a moment, rounded to the tick size */
  priceAt(ms: number): number;
  /** The 1-minute bar opening at `openTime`, cut at `untilMs` when the minute is still open */
  bar(openTime: number, untilMs?: number): MinuteBar | undefined;
}

/**
 * Deterministic seeded random walk of 1-minute closes with regime-switching volatility, plus a per-second path
 * inside each minute (a Brownian bridge from open to close) so the live price moves every second and every bar's
 * high/low agree with the prices a client saw tick by tick. Closes are generated in order from the first minute;
 * the intra-minute paths are derived from (seed, minute) alone and cached only as high/low.
 */
export class GeneratedFeed implements PriceSource {
  readonly spec: SymbolSpec;
  readonly firstOpenTime: number;
  readonly #seed: number;
  readonly #tick: number;
  readonly #originMinute: number;
  readonly #rng: Rng;
  #closes = new Float64Array(0);
  #regimeOf = new Uint8Array(0);
  #highLow = new Float64Array(0);
  #len = 0;
  #logPrice: number;
  #regime = 1;
  #lastPath?: { index: number; path: Float64Array };

  constructor(spec: SymbolSpec, seed: number, firstOpenTime: number) {
    this.spec = spec;
    this.#seed = hash32(seed, ...[...spec.symbol].map((c) => c.charCodeAt(0)));
    this.#tick = Number(spec.tickSize);
    this.#originMinute = Math.floor(firstOpenTime / MINUTE_MS);
    this.firstOpenTime = this.#originMinute * MINUTE_MS;
    this.#rng = new Rng(this.#seed);
    this.#logPrice = Math.log(spec.startPrice);
  }

  /** Generates closes up to and including relative minute `index` */
  #ensure(index: number): void {
    if (index < this.#len) return;
    if (index >= this.#closes.length) {
      const size = Math.max(index + 1, this.#closes.length * 2, 1024);
      const closes = new Float64Array(size);
      closes.set(this.#closes);
      const regimes = new Uint8Array(size);
      regimes.set(this.#regimeOf);
      const hl = new Float64Array(size * 2).fill(Number.NaN);
      hl.set(this.#highLow);
      this.#closes = closes;
      this.#regimeOf = regimes;
      this.#highLow = hl;
    }
    const anchor = Math.log(this.spec.startPrice);
    const minPrice = Number(this.spec.minPrice) * 2;
    for (let i = this.#len; i <= index; i++) {
      const stay = REGIMES[this.#regime as 0 | 1 | 2 | 3];
      if (this.#rng.next() < 1 / stay.meanStay) {
        const row = SWITCH[this.#regime as 0 | 1 | 2 | 3];
        let u = this.#rng.next();
        let next = 0;
        for (; next < row.length - 1; next++) {
          u -= row[next] ?? 0;
          if (u < 0) break;
        }
        this.#regime = next;
      }
      const sigma = REGIMES[this.#regime as 0 | 1 | 2 | 3].sigma;
      this.#logPrice += -MEAN_REVERSION * (this.#logPrice - anchor) + sigma * this.#rng.normal();
      // Keep far above the exchange's min price so every generated price stays orderable
      this.#logPrice = Math.max(this.#logPrice, Math.log(minPrice));
      this.#closes[i] = Math.exp(this.#logPrice);
      this.#regimeOf[i] = this.#regime;
    }
    this.#len = index + 1;
  }

  #round(p: number): number {
    return Math.round(p / this.#tick) * this.#tick;
  }

  #open(index: number): number {
    return index === 0 ? this.spec.startPrice : (this.#closes[index - 1] as number);
  }

  /** The 61 prices of a minute, second 0 (open) to second 60 (close); the latest is kept, it is asked for all the time */
  #path(index: number): Float64Array {
    if (this.#lastPath?.index === index) return this.#lastPath.path;
    const path = this.#buildPath(index);
    this.#lastPath = { index, path };
    return path;
  }

  #buildPath(index: number): Float64Array {
    this.#ensure(index);
    const open = this.#open(index);
    const close = this.#closes[index] as number;
    const sigma = REGIMES[(this.#regimeOf[index] ?? 1) as 0 | 1 | 2 | 3].sigma;
    const rng = new Rng(hash32(this.#seed, this.#originMinute + index));
    // Random walk first (uniform steps scaled to unit variance: cheaper than normals, the sum is near-Gaussian),
    // then turned into the bridge in place: one allocation per minute
    const out = new Float64Array(61);
    for (let k = 1; k <= 60; k++) out[k] = (out[k - 1] as number) + (rng.next() - 0.5) * 3.4641016151377544;
    const end = out[60] as number;
    const scale = ((open * sigma) / Math.sqrt(60)) * 0.5;
    for (let k = 0; k <= 60; k++) {
      const bridge = (out[k] as number) - (k / 60) * end;
      out[k] = Math.max(this.#tick, open + ((close - open) * k) / 60 + bridge * scale);
    }
    out[0] = open;
    out[60] = close;
    return out;
  }

  #index(ms: number): number {
    return Math.max(0, Math.floor(ms / MINUTE_MS) - this.#originMinute);
  }

  priceAt(ms: number): number {
    const index = this.#index(ms);
    const second = ms < this.firstOpenTime ? 0 : Math.floor((ms % MINUTE_MS) / 1000);
    return this.#round(this.#path(index)[second] as number);
  }

  bar(openTime: number, untilMs?: number): MinuteBar | undefined {
    if (openTime < this.firstOpenTime) return undefined;
    const index = this.#index(openTime);
    const start = (this.#originMinute + index) * MINUTE_MS;
    const partial = untilMs !== undefined && untilMs < start + MINUTE_MS;
    if (untilMs !== undefined && untilMs < start) return undefined;
    const lastSecond = partial ? Math.floor((untilMs - start) / 1000) : 60;
    let high: number;
    let low: number;
    let close: number;
    this.#ensure(index);
    const cachedHigh = this.#highLow[index * 2] as number;
    if (!partial && !Number.isNaN(cachedHigh)) {
      high = cachedHigh;
      low = this.#highLow[index * 2 + 1] as number;
      close = this.#round(this.#closes[index] as number);
    } else {
      const path = this.#path(index);
      high = -Infinity;
      low = Infinity;
      for (let k = 0; k <= lastSecond; k++) {
        const p = path[k] as number;
        if (p > high) high = p;
        if (p < low) low = p;
      }
      high = this.#round(high);
      low = this.#round(low);
      close = this.#round(path[lastSecond] as number);
      if (!partial) {
        this.#highLow[index * 2] = high;
        this.#highLow[index * 2 + 1] = low;
      }
    }
    const open = this.#round(this.#open(index));
    const regime = REGIMES[(this.#regimeOf[index] ?? 1) as 0 | 1 | 2 | 3];
    const u = hash32(this.#seed, index, 7) / 4294967296;
    const fullVolume = this.spec.baseVolumePerMinute * (regime.sigma / NORMAL_SIGMA) ** 0.8 * (0.4 + 1.2 * u);
    const fraction = lastSecond / 60;
    const step = Number(this.spec.stepSize);
    const volume = Math.round((fullVolume * fraction) / step) * step;
    const avg = (open + close + high + low) / 4;
    const move = (close - open) / (open * regime.sigma * 3);
    const buyShare = 0.5 + 0.3 * Math.max(-1, Math.min(1, move));
    const takerBuyBase = Math.round((volume * buyShare) / step) * step;
    return {
      openTime: start,
      open,
      high,
      low,
      close,
      volume,
      quoteVolume: volume * avg,
      trades: Math.max(lastSecond, Math.round((fullVolume * fraction * 300) / this.spec.baseVolumePerMinute)),
      takerBuyBase,
      takerBuyQuote: takerBuyBase * avg,
    };
  }
}
