import { type BarColumns, countBars, nextBarOpenTime } from '@kestrel/engine';
import type { Database } from '../../lib/database/database';
import type { ExchangeAdapter } from '../exchange/exchange-adapter';
import type { KlineRepository, KlineSeriesKey, Span } from './kline-repository';

/** Binance's largest klines page */
export const KLINES_PAGE_LIMIT = 1500;

export interface FetchProgress {
  /** Bars asked of the exchange so far / bars missing from the cache when the call began */
  fetched: number;
  missing: number;
}

/** Parts of [start, end) not covered by `covered` (sorted by start, may overlap) */
export function missingSpans(start: number, end: number, covered: readonly Span[]): Span[] {
  const out: Span[] = [];
  let cursor = start;
  for (const c of covered) {
    if (c.end <= cursor) continue;
    if (c.start >= end) break;
    if (c.start > cursor) out.push({ start: cursor, end: Math.min(c.start, end) });
    cursor = Math.max(cursor, c.end);
    if (cursor >= end) break;
  }
  if (cursor < end) out.push({ start: cursor, end });
  return out;
}

/**
 * Candles of the configured exchange, cached in the database. `load` asks the exchange only for the spans no
 * earlier call covered (1500 bars per request; a run's calls are in the exchange budget's background lane, so a
 * page waits for the next minute when the downloads' share is spent), stores the closed bars, and records the
 * span as covered even where the exchange had no bars (before a listing).
 */
export class KlineCache {
  constructor(
    private readonly db: Database,
    private readonly repo: KlineRepository,
    private readonly exchange: Pick<ExchangeAdapter, 'klines'>,
  ) {}

  /**
   * Closed bars with open time in [start, end), both bar open times of the interval (a 1M span runs from a 1st of
   * the month to a 1st) and `end` no later than the last closed bar's end. Throws whatever the exchange throws;
   * `signal` stops between pages
   */
  async load(
    key: KlineSeriesKey,
    span: Span,
    options: { signal?: AbortSignal; onProgress?: (p: FetchProgress) => void } = {},
  ): Promise<BarColumns> {
    const missing = missingSpans(span.start, span.end, await this.repo.coverage(this.db, key, span));
    const total = missing.reduce((sum, m) => sum + countBars(key.interval, m.start, m.end), 0);
    let fetched = 0;
    for (const gap of missing) {
      let cursor = gap.start;
      while (cursor < gap.end) {
        options.signal?.throwIfAborted();
        const page = await this.exchange.klines(key.symbol, key.interval, KLINES_PAGE_LIMIT, {
          startTime: cursor,
          endTime: gap.end - 1,
        });
        options.signal?.throwIfAborted();
        const rows = page.filter((k) => k.openTime >= cursor && k.openTime < gap.end);
        // The exchange has nothing from `cursor` to the gap's end (or answered out of range): the gap is done
        const next =
          rows.length > 0 ? nextBarOpenTime(key.interval, rows.at(-1)?.openTime ?? cursor) : gap.end;
        const upTo = rows.length < KLINES_PAGE_LIMIT && page.length < KLINES_PAGE_LIMIT ? gap.end : next;
        await this.db.transaction(async (tx) => {
          await this.repo.insertBars(tx, key, rows);
          await this.repo.addCoverage(tx, key, { start: cursor, end: upTo });
        });
        fetched += countBars(key.interval, cursor, upTo);
        options.onProgress?.({ fetched: Math.min(fetched, total), missing: total });
        cursor = upTo;
      }
    }
    return this.read(key, span);
  }

  /** Cached bars in [start, end) without asking the exchange */
  async read(key: KlineSeriesKey, span: Span): Promise<BarColumns> {
    const bars = await this.repo.readBars(this.db, key, span);
    return {
      openTime: Float64Array.from(bars.openTime),
      open: Float64Array.from(bars.open),
      high: Float64Array.from(bars.high),
      low: Float64Array.from(bars.low),
      close: Float64Array.from(bars.close),
      volume: Float64Array.from(bars.volume),
    };
  }
}
