import { randomUUID } from 'node:crypto';
import type {
  CreateOrderRequest,
  OrderEvent,
  OrderIntent,
  OrderIntentSource,
  OrderIntentState,
  PlacedBy,
  TradingEnvironment,
} from '@kestrel/contracts';
import type { Order, OrderKind } from '../../core/exchange/exchange-adapter';
import type { Queryable, Row } from '../../lib/database/database';
import type { PreTradeRecord } from '../risk/pre-trade/verdict';

/** An intent as the order manager keeps it: the contract's view plus what only the server needs */
export interface StoredIntent extends OrderIntent {
  userId: string;
  /** Where it was sent: looked up and canceled there, whatever the user switched to since (migration 013) */
  environment: TradingEnvironment;
  /** How a refusal was answered over HTTP, so a repeated request answers the same */
  errorStatus: number | null;
  errorCode: string | null;
  sentAt: number | null;
  nextCheckAt: number | null;
  lastError: string | null;
  /** The pre-trade pipeline's verdicts (migration 020), null before it judged */
  preTrade: PreTradeRecord | null;
}

export interface NewIntent {
  userId: string;
  environment: TradingEnvironment;
  botId: string | null;
  source: OrderIntentSource;
  clientOrderId: string;
  kind: OrderKind;
  request: CreateOrderRequest;
  at: number;
}

/** What changes when an intent moves on; absent fields stay as they are */
export interface IntentChange {
  state?: OrderIntentState;
  order?: Order;
  reason?: string;
  errorStatus?: number;
  errorCode?: string;
  sentAt?: number;
  nextCheckAt?: number | null;
  lastError?: string | null;
  preTrade?: PreTradeRecord;
  attempt?: boolean;
  at: number;
}

const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;
const COLUMNS = `id, user_id, environment, bot_id, source, client_order_id, symbol, kind, request, state, "order", reason,
  error_status, error_code, attempts, last_error, pre_trade, ${ms('next_check_at')} AS next_check_at,
  ${ms('created_at')} AS created_at, ${ms('sent_at')} AS sent_at, ${ms('updated_at')} AS updated_at`;
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

function toIntent(r: Row): StoredIntent {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    environment: r.environment === 'mainnet' ? 'mainnet' : 'testnet',
    botId: r.bot_id === null ? null : String(r.bot_id),
    source: r.source as OrderIntentSource,
    clientOrderId: String(r.client_order_id),
    symbol: String(r.symbol),
    kind: r.kind as OrderKind,
    request: json<CreateOrderRequest>(r.request),
    state: r.state as OrderIntentState,
    order: r.order === null ? null : json<Order>(r.order),
    reason: r.reason === null ? null : String(r.reason),
    errorStatus: numOrNull(r.error_status),
    errorCode: r.error_code === null ? null : String(r.error_code),
    attempts: Number(r.attempts),
    lastError: r.last_error === null ? null : String(r.last_error),
    preTrade: r.pre_trade === null || r.pre_trade === undefined ? null : json<PreTradeRecord>(r.pre_trade),
    nextCheckAt: numOrNull(r.next_check_at),
    createdAt: Number(r.created_at),
    sentAt: numOrNull(r.sent_at),
    updatedAt: Number(r.updated_at),
  };
}

/** Exchange statuses after which an order no longer works on the book */
export const FINAL_ORDER_STATUSES = ['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED', 'FINISHED'];
const OPEN_PLACED = `state = 'placed' AND (exchange_status IS NULL OR exchange_status NOT IN
  (${FINAL_ORDER_STATUSES.map((s) => `'${s}'`).join(', ')}))`;

/** Thin SQL of order intents and the order manager's events */
export const orderIntentRepository = {
  /**
   * Who placed these exchange orders of the account (`SYMBOL:orderId`, a triggered conditional's order included):
   * the intent's source and, for a bot's, the bot (gone: null name). Orders no intent sent are not in the map
   */
  async placersOf(
    db: Queryable,
    account: { userId: string; environment: TradingEnvironment },
    keys: readonly string[],
  ): Promise<Map<string, PlacedBy>> {
    const placers = new Map<string, PlacedBy>();
    if (keys.length === 0) return placers;
    const rows = await db.query(
      `SELECT i.symbol, i.exchange_order_id, i."order"->>'triggeredOrderId' AS triggered, i.source, i.bot_id,
              b.name AS bot_name
         FROM order_intents i LEFT JOIN bots b ON b.id = i.bot_id
        WHERE i.user_id = $1 AND i.environment = $2
          AND (i.symbol || ':' || i.exchange_order_id = ANY($3::text[])
               OR i.symbol || ':' || (i."order"->>'triggeredOrderId') = ANY($3::text[]))`,
      [account.userId, account.environment, [...keys]],
    );
    for (const r of rows) {
      const by: PlacedBy =
        r.source === 'bot'
          ? {
              kind: 'bot',
              botId: r.bot_id == null ? null : String(r.bot_id),
              botName: r.bot_name == null ? null : String(r.bot_name),
            }
          : r.source === 'kill_switch'
            ? { kind: 'kill_switch' }
            : { kind: 'manual' };
      for (const id of [r.exchange_order_id, r.triggered]) {
        if (id != null && id !== '') placers.set(`${String(r.symbol)}:${String(id)}`, by);
      }
    }
    return placers;
  },

  /**
   * Records an intent under its client order id, or finds the one already recorded under it: the unique
   * (user, client order id) is what makes a second request for the same intent answer the first one's outcome
   */
  async claim(db: Queryable, intent: NewIntent): Promise<{ intent: StoredIntent; created: boolean }> {
    const id = randomUUID();
    const inserted = await db.query(
      `INSERT INTO order_intents (id, user_id, bot_id, source, client_order_id, symbol, kind, request, state,
         created_at, updated_at, environment)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', $9, $9, $10)
       ON CONFLICT (user_id, client_order_id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        id,
        intent.userId,
        intent.botId,
        intent.source,
        intent.clientOrderId,
        intent.request.symbol,
        intent.kind,
        JSON.stringify(intent.request),
        new Date(intent.at),
        intent.environment,
      ],
    );
    if (inserted[0]) return { intent: toIntent(inserted[0]), created: true };
    const existing = await this.byClientId(db, intent.userId, intent.clientOrderId);
    if (!existing) throw new Error(`order intent ${intent.clientOrderId} vanished while being claimed`);
    return { intent: existing, created: false };
  },

  async byClientId(db: Queryable, userId: string, clientOrderId: string): Promise<StoredIntent | undefined> {
    const [row] = await db.query(
      `SELECT ${COLUMNS} FROM order_intents WHERE user_id = $1 AND client_order_id = $2`,
      [userId, clientOrderId],
    );
    return row ? toIntent(row) : undefined;
  },

  async byId(db: Queryable, id: string): Promise<StoredIntent | undefined> {
    const [row] = await db.query(`SELECT ${COLUMNS} FROM order_intents WHERE id = $1`, [id]);
    return row ? toIntent(row) : undefined;
  },

  /**
   * Moves an intent on. `from` guards the move (only from one of these states), so two resolvers racing on one
   * intent cannot undo each other; answers the row as it now stands, or undefined when the guard refused
   */
  async update(
    db: Queryable,
    id: string,
    change: IntentChange,
    from?: readonly OrderIntentState[],
  ): Promise<StoredIntent | undefined> {
    const sets: string[] = ['updated_at = $2'];
    const params: unknown[] = [id, new Date(change.at)];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (change.state !== undefined) set('state', change.state);
    if (change.order !== undefined) {
      set('"order"', JSON.stringify(change.order));
      set('exchange_status', change.order.status);
      set('exchange_order_id', change.order.orderId);
    }
    if (change.reason !== undefined) set('reason', change.reason);
    if (change.errorStatus !== undefined) set('error_status', change.errorStatus);
    if (change.errorCode !== undefined) set('error_code', change.errorCode);
    if (change.sentAt !== undefined) set('sent_at', new Date(change.sentAt));
    if (change.nextCheckAt !== undefined)
      set('next_check_at', change.nextCheckAt === null ? null : new Date(change.nextCheckAt));
    if (change.lastError !== undefined) set('last_error', change.lastError);
    if (change.preTrade !== undefined) set('pre_trade', JSON.stringify(change.preTrade));
    if (change.attempt) sets.push('attempts = attempts + 1');
    let guard = '';
    if (from) {
      params.push(from);
      guard = ` AND state = ANY($${params.length}::text[])`;
    }
    const [row] = await db.query(
      `UPDATE order_intents SET ${sets.join(', ')} WHERE id = $1${guard} RETURNING ${COLUMNS}`,
      params,
    );
    return row ? toIntent(row) : undefined;
  },

  /** Newest first; `unresolved`: pending, sending and unknown only */
  async list(
    db: Queryable,
    userId: string,
    filter: 'unresolved' | 'all',
    limit: number,
  ): Promise<StoredIntent[]> {
    const where = filter === 'unresolved' ? ` AND state IN ('pending', 'sending', 'unknown')` : '';
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM order_intents WHERE user_id = $1${where} ORDER BY created_at DESC, id LIMIT $2`,
      [userId, limit],
    );
    return rows.map(toIntent);
  },

  /** Intents whose outcome is not known yet, of one user or (sweep, start) every user, optionally one symbol */
  async unresolved(
    db: Queryable,
    scope: { userId?: string; symbol?: string; dueBy?: number; environment?: TradingEnvironment },
  ): Promise<StoredIntent[]> {
    const params: unknown[] = [];
    let where = `state IN ('pending', 'sending', 'unknown')`;
    if (scope.environment) {
      params.push(scope.environment);
      where += ` AND environment = $${params.length}`;
    }
    if (scope.userId) {
      params.push(scope.userId);
      where += ` AND user_id = $${params.length}`;
    }
    if (scope.symbol) {
      params.push(scope.symbol);
      where += ` AND symbol = $${params.length}`;
    }
    if (scope.dueBy !== undefined) {
      params.push(new Date(scope.dueBy));
      where += ` AND (next_check_at IS NULL OR next_check_at <= $${params.length})`;
    }
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM order_intents WHERE ${where} ORDER BY created_at`,
      params,
    );
    return rows.map(toIntent);
  },

  /** Placed intents whose order may still work on the exchange, of a user, optionally one symbol or one bot */
  async openPlaced(
    db: Queryable,
    scope: { userId?: string; symbol?: string; botId?: string; environment?: TradingEnvironment },
  ): Promise<StoredIntent[]> {
    const params: unknown[] = [];
    let where = OPEN_PLACED;
    if (scope.environment) {
      params.push(scope.environment);
      where += ` AND environment = $${params.length}`;
    }
    if (scope.userId) {
      params.push(scope.userId);
      where += ` AND user_id = $${params.length}`;
    }
    if (scope.symbol) {
      params.push(scope.symbol);
      where += ` AND symbol = $${params.length}`;
    }
    if (scope.botId) {
      params.push(scope.botId);
      where += ` AND bot_id = $${params.length}`;
    }
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM order_intents WHERE ${where} ORDER BY created_at`,
      params,
    );
    return rows.map(toIntent);
  },

  /** A bot's intents with these client order ids (the live bot runtime re-reads the orders it follows) */
  async ofBot(db: Queryable, botId: string, clientOrderIds: readonly string[]): Promise<StoredIntent[]> {
    if (clientOrderIds.length === 0) return [];
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM order_intents WHERE bot_id = $1 AND client_order_id = ANY($2::text[])`,
      [botId, clientOrderIds],
    );
    return rows.map(toIntent);
  },

  /** Intents of a bot that may still be or become working orders (unresolved or placed and open) */
  async liveForBot(db: Queryable, botId: string): Promise<StoredIntent[]> {
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM order_intents
        WHERE bot_id = $1 AND (state IN ('pending', 'sending', 'unknown') OR (${OPEN_PLACED}))
        ORDER BY created_at`,
      [botId],
    );
    return rows.map(toIntent);
  },

  /** Which of these client order ids the user has intents for */
  async knownClientIds(
    db: Queryable,
    userId: string,
    clientOrderIds: readonly string[],
  ): Promise<Set<string>> {
    if (clientOrderIds.length === 0) return new Set();
    const rows = await db.query(
      'SELECT client_order_id FROM order_intents WHERE user_id = $1 AND client_order_id = ANY($2::text[])',
      [userId, clientOrderIds],
    );
    return new Set(rows.map((r) => String(r.client_order_id)));
  },

  /** Symbols the user has placed intents in (a position there may be Kestrel's own) */
  async placedSymbols(db: Queryable, userId: string): Promise<Set<string>> {
    const rows = await db.query(
      `SELECT DISTINCT symbol FROM order_intents WHERE user_id = $1 AND state = 'placed'`,
      [userId],
    );
    return new Set(rows.map((r) => String(r.symbol)));
  },

  /** Users with intents that are unresolved or open: the ones the start-up reconciliation visits */
  async usersToReconcile(db: Queryable): Promise<Array<{ userId: string; environment: TradingEnvironment }>> {
    const rows = await db.query(
      `SELECT DISTINCT user_id, environment FROM order_intents
        WHERE state IN ('pending', 'sending', 'unknown') OR (${OPEN_PLACED})`,
    );
    return rows.map((r) => ({
      userId: String(r.user_id),
      environment: r.environment === 'mainnet' ? 'mainnet' : 'testnet',
    }));
  },

  /** Records an event; with a `dedupeKey` already recorded for the user, nothing is written (undefined) */
  async insertEvent(
    db: Queryable,
    event: {
      userId: string;
      intentId: string | null;
      kind: string;
      message: string;
      data: Record<string, unknown>;
      dedupeKey?: string;
      at: number;
    },
  ): Promise<OrderEvent | undefined> {
    const id = randomUUID();
    const rows = await db.query(
      `INSERT INTO order_events (id, user_id, intent_id, kind, message, data, dedupe_key, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (user_id, dedupe_key) DO NOTHING RETURNING id`,
      [
        id,
        event.userId,
        event.intentId,
        event.kind,
        event.message,
        JSON.stringify(event.data),
        event.dedupeKey ?? null,
        new Date(event.at),
      ],
    );
    if (rows.length === 0) return undefined;
    return {
      id,
      kind: event.kind,
      message: event.message,
      intentId: event.intentId,
      data: event.data,
      createdAt: event.at,
    };
  },

  /** Newest first */
  async events(db: Queryable, userId: string, limit: number): Promise<OrderEvent[]> {
    const rows = await db.query(
      `SELECT id, intent_id, kind, message, data, ${ms('created_at')} AS created_at
         FROM order_events WHERE user_id = $1 ORDER BY seq DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map((r) => ({
      id: String(r.id),
      intentId: r.intent_id === null ? null : String(r.intent_id),
      kind: String(r.kind),
      message: String(r.message),
      data: json<Record<string, unknown>>(r.data),
      createdAt: Number(r.created_at),
    }));
  },
};

export type OrderIntentRepository = typeof orderIntentRepository;
