import { Decimal } from '../common/format';
import { hash32 } from '../common/rng';
import type { SymbolSpec } from '../common/symbols';
import type { PriceSource } from './price-feed';

/** One price level of the book: exact price and quantity */
export interface BookLevel {
  price: Decimal;
  qty: Decimal;
}

/** Deepest level the book shows (GET /fapi/v1/depth limit=1000); a taker order sweeps at most this far */
export const MAX_BOOK_LEVELS = 1000;

export const FUNDING_INTERVAL_MS = 8 * 60 * 60 * 1000;
/** Binance's interest rate component: 0.03% a day, 0.01% per 8 h */
export const INTEREST_RATE = 0.0001;
const CLAMP = 0.0005;
const RATE_CAP = 0.0075;

/** Next 00:00/08:00/16:00 UTC strictly after `ms` */
export function nextFundingTime(ms: number): number {
  return (Math.floor(ms / FUNDING_INTERVAL_MS) + 1) * FUNDING_INTERVAL_MS;
}

/** Binance's funding formula: premium + clamp(interest − premium, ±0.05%), capped */
export function fundingRateFromPremium(premium: number): number {
  const rate = premium + Math.max(-CLAMP, Math.min(CLAMP, INTEREST_RATE - premium));
  return Math.max(-RATE_CAP, Math.min(RATE_CAP, rate));
}

/**
 * Mark, index and funding for one symbol, derived from its price source. The premium of the contract over the
 * index is a slow deterministic wave (hours), so funding rates drift between slightly negative and a few basis
 * points like a real market, and the mark sits close to, but not on, the last price.
 */
export class Market {
  readonly spec: SymbolSpec;
  readonly feed: PriceSource;
  readonly #phase: number;
  readonly #constantPremium?: number;
  readonly #levelBase: Decimal;
  readonly #salt: number;
  /** Second starts at which a price command changed that second's price, one entry per change, ascending */
  readonly #revisions: number[] = [];
  /** The price a revised second's trade printed at: the one before the first command of that second */
  readonly #printed = new Map<number, number>();

  /**
   * `constantPremium` pins the premium (tests: mark = last, a known funding rate). `bookDepth` scales the size of
   * the book's levels (1: a level holds about a twentieth of a typical minute's volume)
   */
  constructor(feed: PriceSource, phase: number, constantPremium?: number, bookDepth = 1) {
    this.spec = feed.spec;
    this.feed = feed;
    this.#phase = phase;
    this.#constantPremium = constantPremium;
    this.#levelBase = new Decimal(feed.spec.baseVolumePerMinute).mul(bookDepth).div(20);
    this.#salt = Math.floor(phase * 1e9);
  }

  lastPrice(ms: number): number {
    return this.feed.priceAt(ms);
  }

  /** Premium of the contract over the index, as a fraction */
  premium(ms: number): number {
    if (this.#constantPremium !== undefined) return this.#constantPremium;
    const h = ms / 3_600_000;
    return 0.0002 + 0.00035 * Math.sin(h / 7 + this.#phase) + 0.0001 * Math.sin(h * 1.3 + 2 * this.#phase);
  }

  /** Rounded to 8 places as Binance publishes it, so money computed from it is reproducible */
  indexPrice(ms: number): number {
    return Number((this.lastPrice(ms) / (1 + this.premium(ms))).toFixed(8));
  }

  /** Mark = index × (1 + smoothed premium): a little behind the last price, never equal to it by construction */
  markPrice(ms: number): number {
    const raw = (this.lastPrice(ms) / (1 + this.premium(ms))) * (1 + this.premium(ms - 30_000));
    return Number(raw.toFixed(8));
  }

  /** Funding rate that would settle at the next funding time, as estimated at `ms` */
  estimatedFundingRate(ms: number): number {
    return fundingRateFromPremium(this.premium(ms));
  }

  /** Best bid/ask of the simulated book: the last price and one tick above */
  book(ms: number): { bid: number; ask: number } {
    const bid = this.lastPrice(ms);
    return { bid, ask: bid + Number(this.spec.tickSize) };
  }

  /**
   * The synthetic order book at `ms` (the same for the same second), best level first: bids from the last price
   * down, asks from one tick above it up, one tick apart. Sizes vary per level and second and grow with depth, in
   * whole steps of at least the minimum quantity. Our own resting orders are not part of it.
   */
  depth(ms: number, levels: number): { bids: BookLevel[]; asks: BookLevel[] } {
    const pp = this.spec.pricePrecision;
    const tick = new Decimal(this.spec.tickSize);
    const bid = new Decimal(this.book(ms).bid.toFixed(pp));
    const n = Math.min(levels, MAX_BOOK_LEVELS);
    return {
      bids: Array.from({ length: n }, (_, i) => ({
        price: bid.minus(tick.mul(i)),
        qty: this.levelQty(ms, 'BID', i),
      })),
      asks: Array.from({ length: n }, (_, i) => ({
        price: bid.plus(tick.mul(i + 1)),
        qty: this.levelQty(ms, 'ASK', i),
      })),
    };
  }

  /** The levels of one side at `ms`, best first, produced as a taker order walks them (at most MAX_BOOK_LEVELS) */
  *levels(ms: number, side: 'BID' | 'ASK'): Generator<BookLevel> {
    const tick = new Decimal(this.spec.tickSize);
    const bid = new Decimal(this.book(ms).bid.toFixed(this.spec.pricePrecision));
    for (let i = 0; i < MAX_BOOK_LEVELS; i++) {
      const price = side === 'BID' ? bid.minus(tick.mul(i)) : bid.plus(tick.mul(i + 1));
      if (price.lte(0)) return;
      yield { price, qty: this.levelQty(ms, side, i) };
    }
  }

  /**
   * Records that a price command changed the price (so the book) of the second of `ms`, which had `before`. The
   * book's update id moves with it, so a depth snapshot taken after the command is told apart from the stream event
   * sent before it; the second's trade, already printed at `before`, keeps that price
   */
  reprice(ms: number, before: number): void {
    const second = Math.floor(ms / 1000) * 1000;
    if (!this.#printed.has(second)) this.#printed.set(second, before);
    // A manual clock may be set back, so keep the list sorted rather than trusting the order of the calls
    this.#revisions.splice(this.#upperBound(second), 0, second);
  }

  /** How many price commands changed the book in the seconds up to and including that of `ms` */
  bookRevisions(ms: number): number {
    return this.#revisions.length === 0 ? 0 : this.#upperBound(Math.floor(ms / 1000) * 1000);
  }

  /** The price the aggregate trade of the second of `ms` printed at */
  tradePrice(ms: number): number {
    return this.#printed.get(Math.floor(ms / 1000) * 1000) ?? this.lastPrice(ms);
  }

  /** Index of the first revision after `second` */
  #upperBound(second: number): number {
    let lo = 0;
    let hi = this.#revisions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#revisions[mid] as number) <= second) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Quantity resting at level `i` (0 = best) of one side during the second of `ms` */
  levelQty(ms: number, side: 'BID' | 'ASK', i: number): Decimal {
    const second = Math.floor(ms / 1000);
    const u = hash32(this.#salt, second, i, side === 'BID' ? 1 : 2) / 4294967296;
    const raw = this.#levelBase.mul(0.5 + u).mul(1 + i / 5);
    const step = new Decimal(this.spec.stepSize);
    const steps = raw.div(step).floor();
    return Decimal.max(new Decimal(this.spec.minQty), steps.mul(step));
  }
}
