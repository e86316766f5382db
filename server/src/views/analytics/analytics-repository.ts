import { TRANSFER_INCOME_TYPES } from '@kestrel/contracts';
import type { TradingAccount } from '../../core/environment/trading-account';
import { ms } from '../../core/recorder/account-rows';
import type { Queryable } from '../../lib/database/database';

export const DAY_MS = 86_400_000;

/** One equity bucket: its last snapshot, lowest equity and deepest drawdown below the range's running peak */
export interface EquityBucketRow {
  time: number;
  equity: string;
  low: string;
  drawdown: string;
  /** Fraction of the peak (float: only shown, never summed) */
  drawdownRatio: number;
}

/** Income sums of a group (a day, a symbol or everything); amounts as exact decimal text */
export interface IncomeSumsRow {
  realizedPnl: string;
  commission: string;
  fundingFee: string;
  other: string;
  net: string;
  transfers: string;
  closingFills: number;
  wins: number;
  grossProfit: string;
  grossLoss: string;
}

export interface DayRow extends IncomeSumsRow {
  day: number;
}

export interface SymbolRow extends IncomeSumsRow {
  /** null: the row of the whole range */
  symbol: string | null;
}

/** The first and last snapshot of a UTC day */
export interface DayEquityRow {
  day: number;
  first: string;
  last: string;
}

const toDate = (t: number) => new Date(t);
// node-postgres returns counts and float8 as number or string; a missing row counts 0
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
/** Numeric text without the scale PostgreSQL carries over from the summed values ("25.0" → "25") */
const text = (v: unknown): string => {
  if (v === null || v === undefined) return '0';
  const s = String(v);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
};
// A fixed list, never the request's text
const transfers = TRANSFER_INCOME_TYPES.map((t) => `'${t}'`).join(', ');
const known = `'REALIZED_PNL', 'COMMISSION', 'FUNDING_FEE', ${transfers}`;

/** The income sums every grouping shares (numeric: exact) */
const SUMS = `
  coalesce(sum(income) FILTER (WHERE income_type = 'REALIZED_PNL'), 0)::text AS realized,
  coalesce(sum(income) FILTER (WHERE income_type = 'COMMISSION'), 0)::text AS commission,
  coalesce(sum(income) FILTER (WHERE income_type = 'FUNDING_FEE'), 0)::text AS funding,
  coalesce(sum(income) FILTER (WHERE income_type NOT IN (${known})), 0)::text AS other,
  coalesce(sum(income) FILTER (WHERE income_type NOT IN (${transfers})), 0)::text AS net,
  coalesce(sum(income) FILTER (WHERE income_type IN (${transfers})), 0)::text AS transfers,
  count(*) FILTER (WHERE income_type = 'REALIZED_PNL' AND income <> 0)::int AS closing,
  count(*) FILTER (WHERE income_type = 'REALIZED_PNL' AND income > 0)::int AS wins,
  coalesce(sum(income) FILTER (WHERE income_type = 'REALIZED_PNL' AND income > 0), 0)::text AS gross_profit,
  coalesce(-sum(income) FILTER (WHERE income_type = 'REALIZED_PNL' AND income < 0), 0)::text AS gross_loss`;

function sums(r: Record<string, unknown>): IncomeSumsRow {
  return {
    realizedPnl: text(r.realized),
    commission: text(r.commission),
    fundingFee: text(r.funding),
    other: text(r.other),
    net: text(r.net),
    transfers: text(r.transfers),
    closingFills: num(r.closing),
    wins: num(r.wins),
    grossProfit: text(r.gross_profit),
    grossLoss: text(r.gross_loss),
  };
}

/** One bot's fills of a range, summed (amounts as exact decimal text; fee as paid, positive) */
export interface BotFillsRow {
  botId: string;
  name: string;
  symbol: string;
  mode: 'paper' | 'live';
  fills: number;
  realizedPnl: string;
  fees: string;
  closingFills: number;
  wins: number;
}

/** Thin SQL over the account recorder's tables (`migrations/004`, per environment since 016): read only */
export const analyticsRepository = {
  /** The first recorded snapshot or income entry of the account, ms since epoch; null when nothing is recorded */
  async firstRecord(db: Queryable, account: TradingAccount): Promise<number | null> {
    const [row] = await db.query(
      `SELECT ${ms(
        'least((SELECT min(minute) FROM equity_snapshots WHERE user_id = $1 AND environment = $2),' +
          ' (SELECT min(time) FROM income_entries WHERE user_id = $1 AND environment = $2))',
      )} AS t`,
      [account.userId, account.environment],
    );
    return row?.t === null || row?.t === undefined ? null : num(row.t);
  },

  /**
   * Equity (margin balance) of [from, to] in buckets of `bucketMs` from `from`, oldest first. The running peak and
   * each minute's fall below it are taken over every snapshot before bucketing, so the deepest fall is exact
   */
  async equityBuckets(
    db: Queryable,
    account: TradingAccount,
    range: { from: number; to: number; bucketMs: number },
  ): Promise<EquityBucketRow[]> {
    // One ordered pass for the running peak, then plain aggregates per bucket (cheaper than window partitions);
    // the bucket's last equity is read back by primary key
    const rows = await db.query(
      `WITH s AS (
         SELECT minute, margin_balance AS e,
                max(margin_balance) OVER (ORDER BY minute ROWS UNBOUNDED PRECEDING) AS peak
           FROM equity_snapshots
          WHERE user_id = $1 AND environment = $6 AND minute >= $2 AND minute <= $3
       ), b AS (
         SELECT floor((${ms('minute')} - $4::float8) / $5::float8) AS bucket, max(minute) AS last,
                min(e) AS low, max(peak - e) AS dd,
                max(CASE WHEN peak > 0 THEN (peak::float8 - e::float8) / peak::float8 ELSE 0 END) AS ddr
           FROM s GROUP BY 1
       )
       SELECT ${ms('b.last')} AS t, q.margin_balance::text AS e, b.low::text AS low, b.dd::text AS dd, b.ddr
         FROM b JOIN equity_snapshots q ON q.user_id = $1 AND q.environment = $6 AND q.minute = b.last
        ORDER BY b.bucket`,
      [account.userId, toDate(range.from), toDate(range.to), range.from, range.bucketMs, account.environment],
    );
    return rows.map((r) => ({
      time: num(r.t),
      equity: text(r.e),
      low: text(r.low),
      drawdown: text(r.dd),
      drawdownRatio: num(r.ddr),
    }));
  },

  /** The first and last snapshot of every UTC day touching [from, to] (the day before `from` too: a carry) */
  async dayEquity(
    db: Queryable,
    account: TradingAccount,
    range: { from: number; to: number },
  ): Promise<DayEquityRow[]> {
    // The day's first and last minute by plain aggregates, their balances read back by primary key
    const rows = await db.query(
      `WITH d AS (
         SELECT floor(${ms('minute')} / ${DAY_MS}) * ${DAY_MS} AS day, min(minute) AS first, max(minute) AS last
           FROM equity_snapshots
          WHERE user_id = $1 AND environment = $4 AND minute >= $2 AND minute <= $3
          GROUP BY 1
       )
       SELECT d.day, f.margin_balance::text AS first, l.margin_balance::text AS last
         FROM d
         JOIN equity_snapshots f ON f.user_id = $1 AND f.environment = $4 AND f.minute = d.first
         JOIN equity_snapshots l ON l.user_id = $1 AND l.environment = $4 AND l.minute = d.last
        ORDER BY d.day`,
      [
        account.userId,
        toDate(Math.floor(range.from / DAY_MS) * DAY_MS - DAY_MS),
        toDate(range.to),
        account.environment,
      ],
    );
    return rows.map((r) => ({ day: num(r.day), first: text(r.first), last: text(r.last) }));
  },

  /** Income sums per UTC day of [from, to], oldest first */
  async daily(
    db: Queryable,
    account: TradingAccount,
    range: { from: number; to: number },
  ): Promise<DayRow[]> {
    const rows = await db.query(
      `SELECT floor(${ms('time')} / ${DAY_MS}) * ${DAY_MS} AS day, ${SUMS}
         FROM income_entries
        WHERE user_id = $1 AND environment = $4 AND time >= $2 AND time <= $3
        GROUP BY 1 ORDER BY 1`,
      [account.userId, toDate(range.from), toDate(range.to), account.environment],
    );
    return rows.map((r) => ({ day: num(r.day), ...sums(r) }));
  },

  /** Income sums per symbol of [from, to] (entries without a symbol, such as transfers, only in the total) and the total */
  async bySymbol(
    db: Queryable,
    account: TradingAccount,
    range: { from: number; to: number },
  ): Promise<{ symbols: SymbolRow[]; total: IncomeSumsRow }> {
    const rows = await db.query(
      `SELECT CASE WHEN grouping(symbol) = 1 THEN NULL ELSE symbol END AS symbol, grouping(symbol) AS total, ${SUMS}
         FROM income_entries
        WHERE user_id = $1 AND environment = $4 AND time >= $2 AND time <= $3
        GROUP BY GROUPING SETS ((symbol), ())`,
      [account.userId, toDate(range.from), toDate(range.to), account.environment],
    );
    const total = rows.find((r) => num(r.total) === 1);
    return {
      symbols: rows
        .filter((r) => num(r.total) === 0 && r.symbol !== '' && r.symbol !== null)
        .map((r) => ({ symbol: String(r.symbol), ...sums(r) })),
      total: sums(total ?? {}),
    };
  },

  /**
   * Each of the user's bots of the account's environment with a fill recorded in [from, to], from its log's
   * `order_filled` events (`migrations/007`; the bot runtime writes them with the fill's realized PnL and, on paper,
   * its fee). Read only; the bots plugin owns the table
   */
  async byBot(
    db: Queryable,
    account: TradingAccount,
    range: { from: number; to: number },
  ): Promise<BotFillsRow[]> {
    const pnl = `coalesce((e.data->>'realizedPnl')::numeric, 0)`;
    const rows = await db.query(
      `SELECT b.id, b.name, b.symbol, b.mode, count(*)::int AS fills,
              coalesce(sum(${pnl}), 0)::text AS realized,
              coalesce(sum((e.data->>'fee')::numeric), 0)::text AS fees,
              count(*) FILTER (WHERE ${pnl} <> 0)::int AS closing,
              count(*) FILTER (WHERE ${pnl} > 0)::int AS wins
         FROM bot_events e JOIN bots b ON b.id = e.bot_id
        WHERE e.user_id = $1 AND b.environment = $4 AND e.kind = 'order_filled' AND e.created_at >= $2
          AND e.created_at <= $3
        GROUP BY b.id, b.name, b.symbol, b.mode`,
      [account.userId, toDate(range.from), toDate(range.to), account.environment],
    );
    return rows.map((r) => ({
      botId: String(r.id),
      name: String(r.name),
      symbol: String(r.symbol),
      mode: r.mode === 'live' ? 'live' : 'paper',
      fills: num(r.fills),
      realizedPnl: text(r.realized),
      fees: text(r.fees),
      closingFills: num(r.closing),
      wins: num(r.wins),
    }));
  },
};

export type AnalyticsRepository = typeof analyticsRepository;
