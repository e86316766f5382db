import { Decimal } from '../common/format';
import type { SymbolSpec } from '../common/symbols';
import { MINUTE_MS, type MinuteBar, type PriceSource } from './price-feed';

/** One point of a driven path: the price reached `afterMs` after the command, moving in a straight line to it */
export interface PricePoint {
  price: string;
  afterMs: number;
}

/**
 * What a test asks of a symbol's price: `price` jumps to it now; `path` moves through the points in straight lines
 * (an `afterMs: 0` first point jumps first); `target` moves in a straight line to it over `overMs`. The price is
 * then held until the symbol is released. Prices are decimal strings on the symbol's tick.
 */
export type PriceCommand =
  | { price: string }
  | { path: readonly PricePoint[] }
  | { target: string; overMs: number };

/** Who moves a symbol's price at a moment: the seeded walk, a held set price, or a path still under way */
export type PriceMode = 'walk' | 'held' | 'path';

/** A symbol's price control at a moment, in plain numbers (the admin API formats them) */
export interface PriceControlState {
  symbol: string;
  mode: PriceMode;
  lastPrice: number;
  markPrice: number;
  indexPrice: number;
  /** Held or path modes: the price the control ends at (and holds) */
  target?: number;
  /** Path mode: when the path reaches its last point */
  until?: number;
  time: number;
}

/** Longest path a command may describe (a year); tests drive minutes or hours */
const MAX_AFTER_MS = 366 * 86_400_000;
const MAX_POINTS = 1000;

/** A price command the symbol's filters or the command's shape refuse; the message names the bad field */
export class PriceCommandError extends Error {}

type Segment =
  /** The feed's own prices scaled by `factor` (1 until a release continues the walk from a set price) */
  | { from: number; kind: 'walk'; factor: number }
  /** Straight lines through the points (absolute times), the last price held after the last point */
  | { from: number; kind: 'path'; points: Array<{ at: number; price: number }> };

function decimalPrice(spec: SymbolSpec, raw: unknown, field: string): number {
  if (typeof raw !== 'string' || !/^-?\d+(\.\d+)?$/.test(raw)) {
    throw new PriceCommandError(
      `"${field}" must be a decimal string like "${spec.startPrice}", got ${JSON.stringify(raw)}`,
    );
  }
  const price = new Decimal(raw);
  if (price.lte(0)) throw new PriceCommandError(`"${field}" must be above 0, got "${raw}"`);
  if (price.lt(spec.minPrice))
    throw new PriceCommandError(`"${field}" ${raw} is below ${spec.symbol}'s min price ${spec.minPrice}`);
  if (price.gt(spec.maxPrice))
    throw new PriceCommandError(`"${field}" ${raw} is above ${spec.symbol}'s max price ${spec.maxPrice}`);
  if (!price.minus(spec.minPrice).mod(spec.tickSize).isZero()) {
    throw new PriceCommandError(`"${field}" ${raw} is not on ${spec.symbol}'s tick size ${spec.tickSize}`);
  }
  return price.toNumber();
}

function duration(raw: unknown, field: string): number {
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 0 || raw > MAX_AFTER_MS) {
    throw new PriceCommandError(
      `"${field}" must be a whole number of ms from 0 to ${MAX_AFTER_MS}, got ${JSON.stringify(raw)}`,
    );
  }
  return raw;
}

/**
 * Checks a command against the symbol's PRICE_FILTER and returns its points relative to the command's time;
 * throws a {@link PriceCommandError} naming the bad field. Reads the fields as unknown: the admin API passes parsed
 * JSON through
 */
export function parsePriceCommand(
  spec: SymbolSpec,
  command: PriceCommand,
): Array<{ afterMs: number; price: number }> {
  const c = command as Record<string, unknown>;
  const kinds = ['price', 'path', 'target'].filter((k) => c[k] !== undefined);
  if (kinds.length !== 1) {
    throw new PriceCommandError(
      'Give exactly one of "price", "path" ([{ "price", "afterMs" }…]) or "target" with "overMs"',
    );
  }
  if (c.price !== undefined) return [{ afterMs: 0, price: decimalPrice(spec, c.price, 'price') }];
  if (c.target !== undefined) {
    return [{ afterMs: duration(c.overMs, 'overMs'), price: decimalPrice(spec, c.target, 'target') }];
  }
  if (!Array.isArray(c.path) || c.path.length === 0 || c.path.length > MAX_POINTS) {
    throw new PriceCommandError(`"path" must be a list of 1 to ${MAX_POINTS} { "price", "afterMs" } points`);
  }
  let previous = 0;
  return c.path.map((raw: unknown, i) => {
    if (typeof raw !== 'object' || raw === null)
      throw new PriceCommandError(`"path[${i}]" must be { "price", "afterMs" }`);
    const p = raw as Record<string, unknown>;
    const point = {
      afterMs: duration(p.afterMs, `path[${i}].afterMs`),
      price: decimalPrice(spec, p.price, `path[${i}].price`),
    };
    if (point.afterMs < previous) {
      throw new PriceCommandError(
        `"path[${i}].afterMs" ${point.afterMs} is before the previous point's ${previous}`,
      );
    }
    previous = point.afterMs;
    return point;
  });
}

/**
 * A symbol's price source as tests can steer it: the seeded walk (or replay) until told otherwise, then a set price
 * or a path, then the walk again from wherever the set price was (scaled, so it never jumps back). A command acts
 * from the start of the current second, never before: bars and tickers of the past are the feed's own. Like the
 * walk, the price changes at most once a second, so every bar's high/low hold the prices clients saw.
 */
export class SteeredFeed implements PriceSource {
  readonly spec: SymbolSpec;
  readonly firstOpenTime: number;
  readonly base: PriceSource;
  readonly #tick: number;
  readonly #segments: Segment[] = [{ from: Number.NEGATIVE_INFINITY, kind: 'walk', factor: 1 }];

  constructor(base: PriceSource) {
    this.base = base;
    this.spec = base.spec;
    this.firstOpenTime = base.firstOpenTime;
    this.#tick = Number(base.spec.tickSize);
  }

  /** On the tick, as the closest double to the decimal, so it compares equal to an order price at the same value */
  #round(p: number): number {
    return Math.max(
      this.#tick,
      Number((Math.round(p / this.#tick) * this.#tick).toFixed(this.spec.pricePrecision)),
    );
  }

  #segmentAt(ms: number): Segment {
    for (let i = this.#segments.length - 1; i > 0; i--) {
      const s = this.#segments[i] as Segment;
      if (s.from <= ms) return s;
    }
    return this.#segments[0] as Segment;
  }

  #priceIn(s: Segment, ms: number): number {
    if (s.kind === 'walk') {
      const p = this.base.priceAt(ms);
      return s.factor === 1 ? p : this.#round(p * s.factor);
    }
    const t = Math.floor(ms / 1000) * 1000;
    const { points } = s;
    // The last point at or before t (the first is the command's own second); paths may have a thousand points
    let i = 0;
    let hi = points.length - 1;
    while (i < hi) {
      const mid = (i + hi + 1) >> 1;
      if ((points[mid] as { at: number }).at <= t) i = mid;
      else hi = mid - 1;
    }
    const a = points[i] as { at: number; price: number };
    const b = points[i + 1];
    if (!b) return a.price;
    return this.#round(a.price + ((b.price - a.price) * (t - a.at)) / (b.at - a.at));
  }

  priceAt(ms: number): number {
    return this.#priceIn(this.#segmentAt(ms), ms);
  }

  bar(openTime: number, untilMs?: number): MinuteBar | undefined {
    const base = this.base.bar(openTime, untilMs);
    if (!base) return undefined;
    const start = base.openTime;
    // The same samples as the generated feed: seconds 0…60 of a closed minute, 0…now of the open one. Second 60 is
    // the next minute's open, read under the control of the minute itself: a command at the boundary starts the next
    // bar with a gap instead of rewriting a bar that has closed
    const lastSecond =
      untilMs !== undefined && untilMs < start + MINUTE_MS ? Math.floor((untilMs - start) / 1000) : 60;
    const first = this.#segmentAt(start);
    const last = this.#segmentAt(start + Math.min(lastSecond * 1000, MINUTE_MS - 1));
    if (first === last && first.kind === 'walk') {
      if (first.factor === 1) return base;
      const k = first.factor;
      return {
        ...base,
        open: this.#round(base.open * k),
        high: this.#round(base.high * k),
        low: this.#round(base.low * k),
        close: this.#round(base.close * k),
        quoteVolume: base.quoteVolume * k,
        takerBuyQuote: base.takerBuyQuote * k,
      };
    }
    if (first === last && first.kind === 'path' && (first.points.at(-1) as { at: number }).at <= start) {
      const p = (first.points.at(-1) as { price: number }).price;
      return {
        ...base,
        open: p,
        high: p,
        low: p,
        close: p,
        quoteVolume: base.volume * p,
        takerBuyQuote: base.takerBuyBase * p,
      };
    }
    let high = Number.NEGATIVE_INFINITY;
    let low = Number.POSITIVE_INFINITY;
    let open = 0;
    let close = 0;
    for (let k = 0; k <= lastSecond; k++) {
      const at = start + k * 1000;
      const p = this.#priceIn(k === 60 ? last : this.#segmentAt(at), at);
      if (k === 0) open = p;
      close = p;
      if (p > high) high = p;
      if (p < low) low = p;
    }
    const avg = (open + high + low + close) / 4;
    return {
      ...base,
      open,
      high,
      low,
      close,
      quoteVolume: base.volume * avg,
      takerBuyQuote: base.takerBuyBase * avg,
    };
  }

  /** Applies a command (checked by {@link parsePriceCommand}) from the start of the second of `now` */
  steer(points: ReadonlyArray<{ afterMs: number; price: number }>, now: number): void {
    const from = Math.floor(now / 1000) * 1000;
    const current = this.priceAt(now);
    this.#replaceFrom(from, {
      from,
      kind: 'path',
      points: [
        { at: from, price: current },
        ...points.map((p) => ({ at: from + p.afterMs, price: p.price })),
      ],
    });
  }

  /** Hands the price back to the walk from the second of `now`, scaled so it continues from the price of now */
  release(now: number): void {
    const from = Math.floor(now / 1000) * 1000;
    const current = this.#segmentAt(from);
    if (current.kind === 'walk') return;
    const price = this.priceAt(from);
    this.#replaceFrom(from, { from, kind: 'walk', factor: price / this.base.priceAt(from) });
  }

  #replaceFrom(from: number, segment: Segment): void {
    while (this.#segments.length > 1 && (this.#segments.at(-1) as Segment).from >= from) this.#segments.pop();
    this.#segments.push(segment);
  }

  /** Who moves the price at `now`, and where a path is heading */
  mode(now: number): { mode: PriceMode; target?: number; until?: number } {
    const s = this.#segmentAt(now);
    if (s.kind === 'walk') return { mode: 'walk' };
    const end = s.points.at(-1) as { at: number; price: number };
    const t = Math.floor(now / 1000) * 1000;
    return t >= end.at
      ? { mode: 'held', target: end.price }
      : { mode: 'path', target: end.price, until: end.at };
  }
}
