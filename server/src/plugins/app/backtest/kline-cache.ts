import { type BarColumns, countBars, nextBarOpenTime } from '@kestrel/engine';
import type { Database, Queryable } from '../../../lib/database/database';
import type { ExchangeAdapter } from '../exchange/exchange-adapter';

/** Binance's largest klines page */
export const KLINES_PAGE_LIMIT = 1500;

export interface KlineSeriesKey {
  /** Exchange environment (simulator, testnet, mainnet): the same symbol differs between them */
  env: string;
  symbol: string;
  /** Binance's name ('1m'…'1d', '3d', '1w', '1M'): spans and pages follow its bar open times (1M: calendar months) */
  interval: string;
}

/** A span [start, end) of bar open times; both ends are bar open times of the series' interval */
export interface Span {
  start: number;
  end: number;
}

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
 * earlier call covered (1500 bars per request; the client holds requests back when the minute's weight runs low),
 * stores the closed bars, and records the span as covered even where the exchange had no bars (before a listing).
 */
export class KlineCache {
  constructor(
    private readonly db: Database,
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
    const missing = missingSpans(span.start, span.end, await this.coverage(key, span));
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
          await insertBars(tx, key, rows);
          await addCoverage(tx, key, { start: cursor, end: upTo });
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
    const rows = await this.db.query<Record<keyof BarColumns, number[] | null>>(
      `SELECT array_agg(open_time::float8 ORDER BY open_time) AS "openTime",
              array_agg(open ORDER BY open_time) AS open, array_agg(high ORDER BY open_time) AS high,
              array_agg(low ORDER BY open_time) AS low, array_agg(close ORDER BY open_time) AS close,
              array_agg(volume ORDER BY open_time) AS volume
         FROM klines
        WHERE exchange_env = $1 AND symbol = $2 AND interval = $3 AND open_time >= $4 AND open_time < $5`,
      [key.env, key.symbol, key.interval, span.start, span.end],
    );
    const row = rows[0];
    const column = (name: keyof BarColumns) => Float64Array.from((row?.[name] ?? []).map(Number));
    return {
      openTime: column('openTime'),
      open: column('open'),
      high: column('high'),
      low: column('low'),
      close: column('close'),
      volume: column('volume'),
    };
  }

  private async coverage(key: KlineSeriesKey, span: Span): Promise<Span[]> {
    const rows = await this.db.query<{ start_time: string | number; end_time: string | number }>(
      `SELECT start_time, end_time FROM kline_coverage
        WHERE exchange_env = $1 AND symbol = $2 AND interval = $3 AND start_time < $5 AND end_time > $4
        ORDER BY start_time`,
      [key.env, key.symbol, key.interval, span.start, span.end],
    );
    return rows.map((r) => ({ start: Number(r.start_time), end: Number(r.end_time) }));
  }
}

async function insertBars(
  tx: Queryable,
  key: KlineSeriesKey,
  rows: readonly {
    openTime: number;
    open: string;
    high: string;
    low: string;
    close: string;
    volume: string;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  // One statement per page: unnest turns the columns into rows (a 1500-row VALUES list would need 9000 parameters)
  await tx.query(
    `INSERT INTO klines (exchange_env, symbol, interval, open_time, open, high, low, close, volume)
     SELECT $1, $2, $3, t.*
       FROM unnest($4::bigint[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::float8[]) AS t
     ON CONFLICT DO NOTHING`,
    [
      key.env,
      key.symbol,
      key.interval,
      rows.map((r) => r.openTime),
      rows.map((r) => Number(r.open)),
      rows.map((r) => Number(r.high)),
      rows.map((r) => Number(r.low)),
      rows.map((r) => Number(r.close)),
      rows.map((r) => Number(r.volume)),
    ],
  );
}

/** Records [start, end) as covered, merged with the spans it touches so the table stays a few rows per series */
async function addCoverage(tx: Queryable, key: KlineSeriesKey, span: Span): Promise<void> {
  if (span.end <= span.start) return;
  const touching = await tx.query<{ start_time: string | number; end_time: string | number }>(
    `DELETE FROM kline_coverage
      WHERE exchange_env = $1 AND symbol = $2 AND interval = $3 AND start_time <= $5 AND end_time >= $4
      RETURNING start_time, end_time`,
    [key.env, key.symbol, key.interval, span.start, span.end],
  );
  const start = Math.min(span.start, ...touching.map((r) => Number(r.start_time)));
  const end = Math.max(span.end, ...touching.map((r) => Number(r.end_time)));
  await tx.query(
    `INSERT INTO kline_coverage (exchange_env, symbol, interval, start_time, end_time) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (exchange_env, symbol, interval, start_time) DO UPDATE SET
       end_time = GREATEST(kline_coverage.end_time, EXCLUDED.end_time)`,
    [key.env, key.symbol, key.interval, start, end],
  );
}
