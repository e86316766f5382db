import type { EquitySnapshot, IncomeEntry, IncomeSortField, TradingEnvironment } from '@kestrel/contracts';
import type { Queryable } from '../../lib/database/database';
import type { TradingAccount } from '../environment/trading-account';
import type { ExchangeKeys } from '../exchange/exchange-adapter';
import { environmentOfKeys } from '../exchange/exchange-router';
import { accountRangeWhere, ms, writeAccountRows } from './account-rows';

/** Which income entries a read takes: [from, to] (ms), a type and a symbol (all when absent), in what order */
export interface IncomeFilter {
  from: number;
  to: number;
  type?: string;
  symbol?: string;
  sort: IncomeSortField;
  order: 'asc' | 'desc';
}

/** The filter of an income query (the page's or the export's) over [from, to] */
export const incomeFilterOf = (
  query: { type?: string; symbol?: string; sort: IncomeSortField; order: 'asc' | 'desc' },
  from: number,
  to: number,
): IncomeFilter => ({
  from,
  to,
  ...(query.type === undefined ? {} : { type: query.type }),
  ...(query.symbol === undefined ? {} : { symbol: query.symbol }),
  sort: query.sort,
  order: query.order,
});

/** Keys of a recorded account: always tagged, since their environment decides where the rows belong */
export type AccountKeys = ExchangeKeys & { environment: TradingEnvironment };

/** The recorded account a key opens; an untagged key is refused rather than guessed (as the exchange router does) */
export function accountOfKeys(userId: string, keys: ExchangeKeys): TradingAccount {
  return { userId, environment: environmentOfKeys(keys) };
}

/** A snapshot as the recorder writes it; times in ms since epoch */
export interface EquitySnapshotRow {
  user_id: string;
  environment: TradingEnvironment;
  /** The minute (floored) the snapshot stands for */
  minute: number;
  taken_at: number;
  wallet_balance: string;
  unrealized_pnl: string;
  margin_balance: string;
  maintenance_margin: string;
}

/** Where an account's income import stands */
export interface IncomeSyncRow {
  user_id: string;
  environment: TradingEnvironment;
  synced_to: number | null;
  failures: number;
  retry_at: number | null;
}

/** Sort columns, from a fixed list (never from the request's text) */
const INCOME_ORDER: Record<IncomeSortField, string> = {
  time: 'e.time',
  // Qualified: a bare `income` would sort the text the SELECT list makes of it
  income: 'e.income',
  incomeType: 'e.income_type',
  symbol: 'e.symbol',
};

const toDate = (t: number) => new Date(t);
// node-postgres returns bigint/float8 as number or string depending on type; normalise
const num = (v: unknown): number => Number(v);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Thin SQL of the account recorder; every write is idempotent (a second instance's copy is a no-op) */
export const recorderRepository = {
  /** Whether the account's snapshot of this minute exists (so a second instance skips the exchange call) */
  async hasSnapshot(db: Queryable, account: TradingAccount, minute: number): Promise<boolean> {
    const rows = await db.query(
      'SELECT 1 FROM equity_snapshots WHERE user_id = $1 AND environment = $2 AND minute = $3',
      [account.userId, account.environment, toDate(minute)],
    );
    return rows.length > 0;
  },

  /** True when written, false when the minute was already recorded (by this or another instance) */
  async insertSnapshot(db: Queryable, row: EquitySnapshotRow): Promise<boolean> {
    const rows = await db.query(
      `INSERT INTO equity_snapshots
         (user_id, minute, taken_at, wallet_balance, unrealized_pnl, margin_balance, maintenance_margin,
          environment)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (user_id, environment, minute) DO NOTHING
       RETURNING user_id`,
      [
        row.user_id,
        toDate(row.minute),
        toDate(row.taken_at),
        row.wallet_balance,
        row.unrealized_pnl,
        row.margin_balance,
        row.maintenance_margin,
        row.environment,
      ],
    );
    return rows.length > 0;
  },

  /**
   * Snapshots of [from, to] in buckets of `bucketMs` starting at `from`: each bucket's last snapshot and its lowest
   * margin balance, oldest first
   */
  async equity(
    db: Queryable,
    account: TradingAccount,
    range: { from: number; to: number; bucketMs: number },
  ): Promise<EquitySnapshot[]> {
    const rows = await db.query(
      `SELECT DISTINCT ON (bucket) t AS time, wallet_balance::text, unrealized_pnl::text, margin_balance::text,
              maintenance_margin::text, (min(margin_balance) OVER (PARTITION BY bucket))::text AS low
         FROM (SELECT *, ${ms('minute')} AS t,
                      floor((${ms('minute')} - $2::float8) / $3::float8) AS bucket
                 FROM equity_snapshots
                WHERE user_id = $1 AND environment = $6 AND minute >= $4 AND minute <= $5) s
        ORDER BY bucket, minute DESC`,
      [account.userId, range.from, range.bucketMs, toDate(range.from), toDate(range.to), account.environment],
    );
    return rows.map((r) => ({
      time: num(r.time),
      walletBalance: String(r.wallet_balance),
      unrealizedPnl: String(r.unrealized_pnl),
      marginBalance: String(r.margin_balance),
      maintenanceMargin: String(r.maintenance_margin),
      marginBalanceLow: String(r.low),
    }));
  },

  /** Stores entries not yet stored (key: account, income type, tranId); returns how many were new */
  insertIncome(db: Queryable, account: TradingAccount, entries: readonly IncomeEntry[]): Promise<number> {
    return writeAccountRows(
      db,
      account,
      entries,
      (e) => [e.incomeType, e.tranId, e.symbol, e.income, e.asset, e.info, e.tradeId, toDate(e.time)],
      (values) =>
        `INSERT INTO income_entries
           (user_id, environment, income_type, tran_id, symbol, income, asset, info, trade_id, time)
         VALUES ${values}
         ON CONFLICT (user_id, environment, income_type, tran_id) DO NOTHING
         RETURNING tran_id`,
    );
  },

  /** Entries of [from, to] matching the filter, newest first, one page, and how many match in all */
  async income(
    db: Queryable,
    account: TradingAccount,
    q: IncomeFilter & { offset: number; limit: number },
  ): Promise<{ items: IncomeEntry[]; total: number }> {
    const { sql, params } = accountRangeWhere('e', account, q, { income_type: q.type, symbol: q.symbol });
    const [count] = await db.query(`SELECT count(*)::int AS n FROM income_entries e WHERE ${sql}`, params);
    const rows = await db.query(
      `SELECT income_type, tran_id, symbol, income::text, asset, info, trade_id, ${ms('time')} AS t
         FROM income_entries e WHERE ${sql}
        ORDER BY ${INCOME_ORDER[q.sort]} ${q.order === 'asc' ? 'ASC' : 'DESC'}, e.time DESC, e.income_type,
                 e.tran_id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.limit, q.offset],
    );
    return {
      total: num(count?.n ?? 0),
      items: rows.map((r) => ({
        tranId: String(r.tran_id),
        incomeType: String(r.income_type),
        symbol: String(r.symbol),
        income: String(r.income),
        asset: String(r.asset),
        info: String(r.info),
        tradeId: String(r.trade_id),
        time: num(r.t),
      })),
    };
  },

  async sync(db: Queryable, account: TradingAccount): Promise<IncomeSyncRow | undefined> {
    const rows = await db.query(
      `SELECT user_id, ${ms('synced_to')} AS synced_to, failures, ${ms('retry_at')} AS retry_at
         FROM income_sync WHERE user_id = $1 AND environment = $2`,
      [account.userId, account.environment],
    );
    const r = rows[0];
    return (
      r && {
        user_id: String(r.user_id),
        environment: account.environment,
        synced_to: numOrNull(r.synced_to),
        failures: num(r.failures),
        retry_at: numOrNull(r.retry_at),
      }
    );
  },

  /**
   * Moves the import mark forward (never back: an instance that read less than another keeps the further mark) and
   * clears the backoff
   */
  async markSynced(db: Queryable, account: TradingAccount, syncedTo: number, now: number): Promise<void> {
    await db.query(
      `INSERT INTO income_sync (user_id, environment, synced_to, failures, retry_at, last_error, updated_at)
       VALUES ($1, $4, $2, 0, NULL, NULL, $3)
       ON CONFLICT (user_id, environment) DO UPDATE SET
         synced_to = GREATEST(income_sync.synced_to, EXCLUDED.synced_to),
         failures = 0, retry_at = NULL, last_error = NULL, updated_at = EXCLUDED.updated_at`,
      [account.userId, toDate(syncedTo), toDate(now), account.environment],
    );
  },

  /** Records a failed round: the user is left alone until `retryAt` */
  async markFailed(
    db: Queryable,
    account: TradingAccount,
    failures: number,
    retryAt: number,
    error: string,
    now: number,
  ): Promise<void> {
    await db.query(
      `INSERT INTO income_sync (user_id, environment, synced_to, failures, retry_at, last_error, updated_at)
       VALUES ($1, $6, NULL, $2, $3, $4, $5)
       ON CONFLICT (user_id, environment) DO UPDATE SET
         failures = EXCLUDED.failures, retry_at = EXCLUDED.retry_at, last_error = EXCLUDED.last_error,
         updated_at = EXCLUDED.updated_at`,
      [account.userId, failures, toDate(retryAt), error, toDate(now), account.environment],
    );
  },
};

export type RecorderRepository = typeof recorderRepository;
