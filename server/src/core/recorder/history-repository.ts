import type {
  AssetAmount,
  FuturesTrade,
  HistoryOrder,
  OrderSortField,
  TradeSortField,
} from '@kestrel/contracts';
import type { Queryable } from '../../lib/database/database';
import type { TradingAccount } from '../environment/trading-account';
import type { PlacedOrder, Trade } from '../exchange/exchange-adapter';
import { accountRangeWhere, ms, writeAccountRows } from './account-rows';

/** Which cursor of a symbol's import */
export type HistoryKind = 'trades' | 'orders';

/** Statuses an order can still leave: such an order is read again until it ends */
export const OPEN_ORDER_STATUSES = ['NEW', 'PARTIALLY_FILLED'] as const;

/** Sort columns, from a fixed list (never from the request's text) */
const TRADE_ORDER: Record<TradeSortField, string> = {
  time: 't.time',
  symbol: 't.symbol',
  price: 't.price',
  quantity: 't.quantity',
  quoteQuantity: 't.quote_quantity',
  realizedPnl: 't.realized_pnl',
  commission: 't.commission',
};
const ORDER_ORDER: Record<OrderSortField, string> = {
  time: 'o.time',
  updatedAt: 'o.updated_at',
  symbol: 'o.symbol',
  price: 'o.price',
  quantity: 'o.quantity',
  status: 'o.status',
};

/** Filters of a history read; `offset`/`limit` pick the page */
export interface HistoryFilter {
  from: number;
  to: number;
  symbol?: string;
  side?: string;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const toDate = (t: number) => new Date(t);
const num = (v: unknown): number => Number(v);
/** numeric(20) ids come back as text from both drivers; written without a decimal point */
const idText = (v: unknown): string => String(v).replace(/\.0*$/, '');

/** WHERE clause and parameters of the filters shared by trades and orders (`alias` names the table) */
const where = (
  alias: string,
  account: TradingAccount,
  q: HistoryFilter & { type?: string; status?: string },
) => accountRangeWhere(alias, account, q, { symbol: q.symbol, side: q.side, type: q.type, status: q.status });

/** Thin SQL of the order and trade import; every write is idempotent (keyed by Binance's ids) */
export const historyRepository = {
  /**
   * Symbols the account has touched as far as the database knows: those of its imported income (every fill books
   * a commission) and those already being imported
   */
  async knownSymbols(db: Queryable, account: TradingAccount): Promise<string[]> {
    const rows = await db.query(
      `SELECT DISTINCT symbol FROM income_entries WHERE user_id = $1 AND environment = $2 AND symbol <> ''
       UNION SELECT DISTINCT symbol FROM history_sync WHERE user_id = $1 AND environment = $2`,
      [account.userId, account.environment],
    );
    return rows.map((r) => String(r.symbol)).sort();
  },

  /** Every symbol with imported orders, fills or income, A to Z (the history page's symbol filter) */
  async historySymbols(db: Queryable, account: TradingAccount): Promise<string[]> {
    const rows = await db.query(
      `SELECT symbol FROM trade_history WHERE user_id = $1 AND environment = $2
       UNION SELECT symbol FROM order_history WHERE user_id = $1 AND environment = $2
       UNION SELECT symbol FROM income_entries WHERE user_id = $1 AND environment = $2 AND symbol <> ''
       ORDER BY symbol`,
      [account.userId, account.environment],
    );
    return rows.map((r) => String(r.symbol));
  },

  /** The id a symbol's import goes on from ("0" before the first import) */
  async cursor(db: Queryable, account: TradingAccount, symbol: string, kind: HistoryKind): Promise<string> {
    const [row] = await db.query(
      `SELECT next_id::text AS next_id FROM history_sync
        WHERE user_id = $1 AND environment = $4 AND symbol = $2 AND kind = $3`,
      [account.userId, symbol, kind, account.environment],
    );
    return row ? idText(row.next_id) : '0';
  },

  /**
   * Where the orders of a symbol are read from: the oldest order still open (its status may have changed), else
   * the cursor
   */
  async ordersStart(db: Queryable, account: TradingAccount, symbol: string): Promise<string> {
    const [row] = await db.query(
      `SELECT min(order_id)::text AS open_id FROM order_history
        WHERE user_id = $1 AND environment = $4 AND symbol = $2 AND status = ANY($3)`,
      [account.userId, symbol, [...OPEN_ORDER_STATUSES], account.environment],
    );
    const cursor = await historyRepository.cursor(db, account, symbol, 'orders');
    const open = row?.open_id == null ? undefined : idText(row.open_id);
    return open !== undefined && BigInt(open) < BigInt(cursor) ? open : cursor;
  },

  /** Moves a symbol's cursor forward (never back: another instance may have read further) */
  async advance(
    db: Queryable,
    account: TradingAccount,
    symbol: string,
    kind: HistoryKind,
    nextId: string,
    now: number,
  ): Promise<void> {
    await db.query(
      `INSERT INTO history_sync (user_id, environment, symbol, kind, next_id, updated_at)
       VALUES ($1, $6, $2, $3, $4, $5)
       ON CONFLICT (user_id, environment, symbol, kind) DO UPDATE SET
         next_id = GREATEST(history_sync.next_id, EXCLUDED.next_id), updated_at = EXCLUDED.updated_at`,
      [account.userId, symbol, kind, nextId, toDate(now), account.environment],
    );
  },

  /** When the account's orders and fills were last read from the exchange; null before the first import */
  async importedAt(db: Queryable, account: TradingAccount): Promise<number | null> {
    const [row] = await db.query(
      `SELECT ${ms('imported_at')} AS t FROM history_import WHERE user_id = $1 AND environment = $2`,
      [account.userId, account.environment],
    );
    return row?.t == null ? null : num(row.t);
  },

  /** Records a finished import (never moving the time back) */
  async markImported(db: Queryable, account: TradingAccount, now: number): Promise<void> {
    await db.query(
      `INSERT INTO history_import (user_id, environment, imported_at) VALUES ($1, $3, $2)
       ON CONFLICT (user_id, environment) DO UPDATE SET
         imported_at = GREATEST(history_import.imported_at, EXCLUDED.imported_at)`,
      [account.userId, toDate(now), account.environment],
    );
  },

  /** When each symbol's import last ran (its older cursor), ms since epoch */
  async importedAtBySymbol(db: Queryable, account: TradingAccount): Promise<Map<string, number>> {
    const rows = await db.query(
      `SELECT symbol, ${ms('min(updated_at)')} AS t FROM history_sync
        WHERE user_id = $1 AND environment = $2 GROUP BY symbol`,
      [account.userId, account.environment],
    );
    return new Map(rows.map((r) => [String(r.symbol), num(r.t)]));
  },

  /** Stores fills not yet stored; returns how many were new */
  insertTrades(db: Queryable, account: TradingAccount, trades: readonly Trade[]): Promise<number> {
    return writeAccountRows(
      db,
      account,
      trades,
      (t) => [
        t.symbol,
        t.id,
        t.orderId,
        t.side,
        t.positionSide,
        t.price,
        t.quantity,
        t.quoteQuantity,
        t.realizedPnl,
        t.commission,
        t.commissionAsset,
        t.maker,
        toDate(t.time),
      ],
      (values) =>
        `INSERT INTO trade_history (user_id, environment, symbol, trade_id, order_id, side, position_side, price,
                                    quantity, quote_quantity, realized_pnl, commission, commission_asset, maker,
                                    time)
         VALUES ${values}
         ON CONFLICT (user_id, environment, symbol, trade_id) DO NOTHING
         RETURNING trade_id`,
    );
  },

  /** Stores new orders and the latest state of known ones (an older answer never overwrites a newer one) */
  async upsertOrders(db: Queryable, account: TradingAccount, orders: readonly PlacedOrder[]): Promise<void> {
    await writeAccountRows(
      db,
      account,
      orders,
      (o) => [
        o.symbol,
        o.orderId,
        o.clientOrderId,
        o.side,
        o.type,
        o.status,
        o.price,
        o.averagePrice,
        o.quantity,
        o.executedQuantity,
        o.timeInForce,
        o.reduceOnly,
        o.positionSide,
        o.triggerPrice,
        toDate(o.placedAt),
        toDate(o.updatedAt),
      ],
      (values) =>
        `INSERT INTO order_history (user_id, environment, symbol, order_id, client_order_id, side, type, status,
                                    price, average_price, quantity, executed_quantity, time_in_force, reduce_only,
                                    position_side, trigger_price, time, updated_at)
         VALUES ${values}
         ON CONFLICT (user_id, environment, symbol, order_id) DO UPDATE SET
           status = EXCLUDED.status, average_price = EXCLUDED.average_price,
           executed_quantity = EXCLUDED.executed_quantity, updated_at = EXCLUDED.updated_at
         WHERE order_history.updated_at <= EXCLUDED.updated_at`,
    );
  },

  /** Fills matching the filter, one page, how many match in all and their sums */
  async trades(
    db: Queryable,
    account: TradingAccount,
    q: HistoryFilter & { sort: TradeSortField },
  ): Promise<{
    items: FuturesTrade[];
    total: number;
    totals: { realizedPnl: string; quoteQuantity: string; commission: AssetAmount[] };
  }> {
    const { sql, params } = where('t', account, q);
    const [sums] = await db.query(
      `SELECT count(*)::int AS n, coalesce(sum(realized_pnl), 0)::text AS pnl,
              coalesce(sum(quote_quantity), 0)::text AS quote
         FROM trade_history t WHERE ${sql}`,
      params,
    );
    const fees = await db.query(
      `SELECT commission_asset AS asset, sum(commission)::text AS amount
         FROM trade_history t WHERE ${sql} GROUP BY commission_asset ORDER BY commission_asset`,
      params,
    );
    const items = await historyRepository.tradeRows(db, account, q);
    return {
      items,
      total: num(sums?.n ?? 0),
      totals: {
        realizedPnl: String(sums?.pnl ?? '0'),
        quoteQuantity: String(sums?.quote ?? '0'),
        commission: fees.map((r) => ({ asset: String(r.asset), amount: String(r.amount) })),
      },
    };
  },

  /** One page of the fills matching the filter (the export reads them page by page) */
  async tradeRows(
    db: Queryable,
    account: TradingAccount,
    q: HistoryFilter & { sort: TradeSortField },
  ): Promise<FuturesTrade[]> {
    const { sql, params } = where('t', account, q);
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const rows = await db.query(
      `SELECT symbol, trade_id::text AS trade_id, order_id::text AS order_id, side, position_side, price::text,
              quantity::text, quote_quantity::text, realized_pnl::text, commission::text, commission_asset, maker,
              ${ms('time')} AS ms
         FROM trade_history t WHERE ${sql}
        ORDER BY ${TRADE_ORDER[q.sort]} ${dir}, t.time ${dir}, t.symbol, t.trade_id ${dir}
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.limit, q.offset],
    );
    return rows.map((r) => ({
      id: idText(r.trade_id),
      orderId: idText(r.order_id),
      symbol: String(r.symbol),
      side: r.side === 'SELL' ? 'SELL' : 'BUY',
      positionSide: r.position_side === 'LONG' ? 'LONG' : r.position_side === 'SHORT' ? 'SHORT' : 'BOTH',
      price: String(r.price),
      quantity: String(r.quantity),
      quoteQuantity: String(r.quote_quantity),
      realizedPnl: String(r.realized_pnl),
      commission: String(r.commission),
      commissionAsset: String(r.commission_asset),
      maker: Boolean(r.maker),
      time: num(r.ms),
    }));
  },

  /** Orders matching the filter, one page, and how many match in all */
  async orders(
    db: Queryable,
    account: TradingAccount,
    q: HistoryFilter & { sort: OrderSortField; type?: string; status?: string },
  ): Promise<{ items: HistoryOrder[]; total: number }> {
    const { sql, params } = where('o', account, q);
    const [count] = await db.query(`SELECT count(*)::int AS n FROM order_history o WHERE ${sql}`, params);
    return { total: num(count?.n ?? 0), items: await historyRepository.orderRows(db, account, q) };
  },

  /** One page of the orders matching the filter */
  async orderRows(
    db: Queryable,
    account: TradingAccount,
    q: HistoryFilter & { sort: OrderSortField; type?: string; status?: string },
  ): Promise<HistoryOrder[]> {
    const { sql, params } = where('o', account, q);
    const dir = q.order === 'asc' ? 'ASC' : 'DESC';
    const rows = await db.query(
      `SELECT symbol, order_id::text AS order_id, client_order_id, side, type, status, price::text,
              average_price::text, quantity::text, executed_quantity::text, time_in_force, reduce_only,
              position_side, trigger_price::text, ${ms('time')} AS ms, ${ms('updated_at')} AS updated_ms
         FROM order_history o WHERE ${sql}
        ORDER BY ${ORDER_ORDER[q.sort]} ${dir}, o.time ${dir}, o.symbol, o.order_id ${dir}
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, q.limit, q.offset],
    );
    return rows.map((r) => ({
      orderId: idText(r.order_id),
      clientOrderId: String(r.client_order_id),
      symbol: String(r.symbol),
      side: r.side === 'SELL' ? 'SELL' : 'BUY',
      type: String(r.type),
      status: String(r.status),
      price: String(r.price),
      averagePrice: String(r.average_price),
      quantity: String(r.quantity),
      executedQuantity: String(r.executed_quantity),
      timeInForce: String(r.time_in_force),
      reduceOnly: Boolean(r.reduce_only),
      positionSide: r.position_side === 'LONG' ? 'LONG' : r.position_side === 'SHORT' ? 'SHORT' : 'BOTH',
      triggerPrice: String(r.trigger_price),
      time: num(r.ms),
      updatedAt: num(r.updated_ms),
    }));
  },
};

export type HistoryRepository = typeof historyRepository;
