import type { SymbolSpec } from '../common/symbols';
import type { PriceSource } from './price-feed';

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

  /** `constantPremium` pins the premium (tests: mark = last, a known funding rate) */
  constructor(feed: PriceSource, phase: number, constantPremium?: number) {
    this.spec = feed.spec;
    this.feed = feed;
    this.#phase = phase;
    this.#constantPremium = constantPremium;
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
}
