import type { SymbolSpec } from '../common/symbols';
import { MINUTE_MS, type MinuteBar, type PriceSource } from './price-feed';

/** What a recorded bar needs; the rest of a {@link MinuteBar} is derived */
export type ReplayBar = Pick<MinuteBar, 'openTime' | 'open' | 'high' | 'low' | 'close' | 'volume'>;

/**
 * Prices replayed from recorded 1-minute bars (a klines CSV, or bars a test writes to force a scenario).
 * Inside a minute the price walks open → low → high → close for a rising bar and open → high → low → close for a
 * falling one (the usual OHLC path assumption), in straight lines over 20 s each. After the last bar the price
 * stays at its close; gaps between bars repeat the previous close.
 */
export class ReplayFeed implements PriceSource {
  readonly spec: SymbolSpec;
  readonly firstOpenTime: number;
  readonly #bars: ReplayBar[];
  readonly #tick: number;

  constructor(spec: SymbolSpec, bars: readonly ReplayBar[]) {
    if (bars.length === 0) throw new Error(`A replay for ${spec.symbol} needs at least one bar`);
    this.#bars = [...bars].sort((a, b) => a.openTime - b.openTime);
    this.#bars.forEach((b, i) => {
      if (b.openTime % MINUTE_MS !== 0)
        throw new Error(`Bar ${i} of ${spec.symbol}: openTime is not on a minute`);
      if (!(b.low <= Math.min(b.open, b.close) && b.high >= Math.max(b.open, b.close) && b.low > 0)) {
        throw new Error(`Bar ${i} of ${spec.symbol} at ${b.openTime}: low/high do not contain open/close`);
      }
    });
    this.spec = spec;
    this.firstOpenTime = (this.#bars[0] as ReplayBar).openTime;
    this.#tick = Number(spec.tickSize);
  }

  /**
   * Parses `openTime,open,high,low,close,volume[,…]` lines (Binance's kline CSV column order); a header is skipped.
   * With `startAt`, every bar is moved in time so the first opens at that minute (replaying old data as if live).
   */
  static fromCsv(spec: SymbolSpec, csv: string, startAt?: number): ReplayFeed {
    const bars: ReplayBar[] = [];
    csv.split(/\r?\n/).forEach((line, i) => {
      const trimmed = line.trim();
      if (trimmed === '' || (i === 0 && /[a-z]/i.test(trimmed))) return;
      const cols = trimmed.split(',').map(Number);
      if (cols.length < 6 || cols.slice(0, 6).some((n) => !Number.isFinite(n))) {
        throw new Error(`CSV line ${i + 1}: expected openTime,open,high,low,close,volume`);
      }
      const [openTime, open, high, low, close, volume] = cols as [
        number,
        number,
        number,
        number,
        number,
        number,
      ];
      bars.push({ openTime, open, high, low, close, volume });
    });
    const first = bars.reduce((min, b) => Math.min(min, b.openTime), Number.POSITIVE_INFINITY);
    const shift =
      startAt === undefined || bars.length === 0 ? 0 : Math.floor(startAt / MINUTE_MS) * MINUTE_MS - first;
    return new ReplayFeed(
      spec,
      bars.map((b) => ({ ...b, openTime: b.openTime + shift })),
    );
  }

  #find(openTime: number): ReplayBar | undefined {
    let lo = 0;
    let hi = this.#bars.length - 1;
    let found: ReplayBar | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const b = this.#bars[mid] as ReplayBar;
      if (b.openTime <= openTime) {
        found = b;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  #round(p: number): number {
    return Math.round(p / this.#tick) * this.#tick;
  }

  #pathAt(b: ReplayBar, second: number): number {
    const points = b.close >= b.open ? [b.open, b.low, b.high, b.close] : [b.open, b.high, b.low, b.close];
    const seg = Math.min(2, Math.floor(second / 20));
    const frac = (second - seg * 20) / 20;
    const from = points[seg] as number;
    const to = points[seg + 1] as number;
    return from + (to - from) * frac;
  }

  priceAt(ms: number): number {
    const openTime = Math.floor(ms / MINUTE_MS) * MINUTE_MS;
    const b = this.#find(openTime);
    if (!b) return this.#round((this.#bars[0] as ReplayBar).open);
    if (b.openTime !== openTime) return this.#round(b.close);
    return this.#round(this.#pathAt(b, Math.floor((ms - openTime) / 1000)));
  }

  bar(openTime: number, untilMs?: number): MinuteBar | undefined {
    if (openTime < this.firstOpenTime || (untilMs !== undefined && untilMs < openTime)) return undefined;
    const found = this.#find(openTime);
    if (!found) return undefined;
    const b: ReplayBar =
      found.openTime === openTime
        ? found
        : { openTime, open: found.close, high: found.close, low: found.close, close: found.close, volume: 0 };
    const partial = untilMs !== undefined && untilMs < openTime + MINUTE_MS;
    let { high, low, close } = b;
    let fraction = 1;
    if (partial) {
      const last = Math.floor((untilMs - openTime) / 1000);
      high = -Infinity;
      low = Infinity;
      for (let s = 0; s <= last; s++) {
        const p = this.#pathAt(b, s);
        high = Math.max(high, p);
        low = Math.min(low, p);
      }
      close = this.#pathAt(b, last);
      fraction = last / 60;
    }
    const volume = b.volume * fraction;
    const avg = (b.open + high + low + close) / 4;
    return {
      openTime,
      open: this.#round(b.open),
      high: this.#round(high),
      low: this.#round(low),
      close: this.#round(close),
      volume,
      quoteVolume: volume * avg,
      trades: volume > 0 ? Math.max(1, Math.round(60 * fraction)) : 0,
      takerBuyBase: volume / 2,
      takerBuyQuote: (volume / 2) * avg,
    };
  }
}
