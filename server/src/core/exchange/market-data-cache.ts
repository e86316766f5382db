import type { Params } from './binance-weights';

/**
 * How long a public answer may be served again, ms, or undefined when it is not shared: tickers for 2 s, the
 * latest candles for 2 s below 1 h bars and 10 s from 1 h up (the risk page's ATR and VaR read those), the
 * exchange's symbol list for a minute. Ranged candle pages (backtests: the database caches them) and funding
 * history are not shared.
 */
export function freshnessMs(path: string, params: Params): number | undefined {
  switch (path) {
    case '/fapi/v1/ticker/24hr':
    case '/fapi/v1/premiumIndex':
      return 2_000;
    case '/fapi/v1/klines': {
      if (params.startTime !== undefined || params.endTime !== undefined) return undefined;
      const interval = String(params.interval ?? '');
      return /^\d+m$/.test(interval) ? 2_000 : 10_000;
    }
    case '/fapi/v1/exchangeInfo':
      return 60_000;
    default:
      return undefined;
  }
}

interface Entry {
  /** Settled answers only; while the call runs, `pending` is what later askers wait on */
  value?: unknown;
  pending?: Promise<unknown>;
  expiresAt: number;
}

/** At most this many answers are kept; the oldest go first (a Map keeps insertion order) */
const MAX_ENTRIES = 2_000;

/**
 * Public market answers shared by every user of this server: one upstream call per endpoint and parameters within
 * its freshness window, however many users ask, and concurrent identical asks wait on the same call. A failed
 * call is not kept (the next ask tries again); its waiters get its error.
 */
export class MarketDataCache {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly now: () => number) {}

  /**
   * The shared answer of `key` if one is fresh or on its way; else `start()` is called and its answer shared for
   * `ttlMs`. `start` may throw before returning its promise (a budget refusal of this caller): then nothing is
   * registered and no one else is affected
   */
  async get(key: string, ttlMs: number, start: () => Promise<unknown>): Promise<unknown> {
    const now = this.now();
    const hit = this.#entries.get(key);
    if (hit?.pending) return hit.pending;
    if (hit && hit.expiresAt > now) return hit.value;
    const pending = start();
    const entry: Entry = { pending, expiresAt: Number.POSITIVE_INFINITY };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    if (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    try {
      const value = await pending;
      if (this.#entries.get(key) === entry) {
        entry.value = value;
        entry.pending = undefined;
        entry.expiresAt = this.now() + ttlMs;
      }
      return value;
    } catch (err) {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
      throw err;
    }
  }
}

/** The cache key of a public call: path and parameters in a fixed order */
export function cacheKey(path: string, params: Params): string {
  const entries = Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return `${path}?${entries.map(([k, v]) => `${k}=${String(v)}`).join('&')}`;
}
