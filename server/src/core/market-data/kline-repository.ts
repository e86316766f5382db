import type { Queryable } from '../../lib/database/database';

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

/** A bar as the exchange gives it (prices as decimal strings) */
export interface StoredBar {
  openTime: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** Stored bars of a span as one array per field, oldest first */
export interface StoredBarArrays {
  openTime: number[];
  open: number[];
  high: number[];
  low: number[];
  close: number[];
  volume: number[];
}

type CoverageRow = { start_time: string | number; end_time: string | number };

/**
 * Thin SQL for the kline cache: `klines` (bars by exchange env, symbol, interval, open time) and `kline_coverage`
 * (the spans already asked of the exchange). Every method takes the db or a transaction
 */
export const klineRepository = {
  /** Bars with open time in [start, end), oldest first */
  async readBars(db: Queryable, key: KlineSeriesKey, span: Span): Promise<StoredBarArrays> {
    const rows = await db.query<Record<keyof StoredBarArrays, (number | string)[] | null>>(
      `SELECT array_agg(open_time::float8 ORDER BY open_time) AS "openTime",
              array_agg(open ORDER BY open_time) AS open, array_agg(high ORDER BY open_time) AS high,
              array_agg(low ORDER BY open_time) AS low, array_agg(close ORDER BY open_time) AS close,
              array_agg(volume ORDER BY open_time) AS volume
         FROM klines
        WHERE exchange_env = $1 AND symbol = $2 AND interval = $3 AND open_time >= $4 AND open_time < $5`,
      [key.env, key.symbol, key.interval, span.start, span.end],
    );
    const row = rows[0];
    const column = (name: keyof StoredBarArrays) => (row?.[name] ?? []).map(Number);
    return {
      openTime: column('openTime'),
      open: column('open'),
      high: column('high'),
      low: column('low'),
      close: column('close'),
      volume: column('volume'),
    };
  },

  /** Covered spans that overlap [start, end), sorted by start (they may overlap each other) */
  async coverage(db: Queryable, key: KlineSeriesKey, span: Span): Promise<Span[]> {
    const rows = await db.query<CoverageRow>(
      `SELECT start_time, end_time FROM kline_coverage
        WHERE exchange_env = $1 AND symbol = $2 AND interval = $3 AND start_time < $5 AND end_time > $4
        ORDER BY start_time`,
      [key.env, key.symbol, key.interval, span.start, span.end],
    );
    return rows.map((r) => ({ start: Number(r.start_time), end: Number(r.end_time) }));
  },

  /** Stores a page of bars; bars already stored are kept as they are */
  async insertBars(db: Queryable, key: KlineSeriesKey, rows: readonly StoredBar[]): Promise<void> {
    if (rows.length === 0) return;
    // One statement per page: unnest turns the columns into rows (a 1500-row VALUES list would need 9000 parameters)
    await db.query(
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
  },

  /** Records [start, end) as covered, merged with the spans it touches so the table stays a few rows per series */
  async addCoverage(db: Queryable, key: KlineSeriesKey, span: Span): Promise<void> {
    if (span.end <= span.start) return;
    const touching = await db.query<CoverageRow>(
      `DELETE FROM kline_coverage
        WHERE exchange_env = $1 AND symbol = $2 AND interval = $3 AND start_time <= $5 AND end_time >= $4
        RETURNING start_time, end_time`,
      [key.env, key.symbol, key.interval, span.start, span.end],
    );
    const start = Math.min(span.start, ...touching.map((r) => Number(r.start_time)));
    const end = Math.max(span.end, ...touching.map((r) => Number(r.end_time)));
    await db.query(
      `INSERT INTO kline_coverage (exchange_env, symbol, interval, start_time, end_time) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (exchange_env, symbol, interval, start_time) DO UPDATE SET
         end_time = GREATEST(kline_coverage.end_time, EXCLUDED.end_time)`,
      [key.env, key.symbol, key.interval, start, end],
    );
  },
};
export type KlineRepository = typeof klineRepository;
