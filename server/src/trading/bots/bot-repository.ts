import type { TradingEnvironment } from '@kestrel/contracts';
import type { BotEventKind, BotKind, BotMode, BotRiskLimits, BotState } from '@kestrel/contracts/bots';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { Queryable } from '../../lib/database/database';

/** The side of a symbol a live bot holds on an account in hedge mode (Binance's `positionSide`) */
export type HedgeSide = 'LONG' | 'SHORT';

/** A bots row as the service uses it (numeric as number, jsonb parsed) */
export interface BotRow {
  id: string;
  user_id: string;
  kind: BotKind;
  name: string;
  strategy: string;
  params: Record<string, unknown>;
  symbol: string;
  interval: string;
  leverage: number;
  budget: number;
  mode: BotMode;
  /** Where it trades: its owner's environment when it was created (migration 013) */
  environment: TradingEnvironment;
  risk_limits: BotRiskLimits;
  state: BotState;
  stop_reason: string | null;
  /** While `stopping`: the state it ends in */
  stop_state: BotEndState | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  /** Open time of the session's first traded bar (`session-bars.ts`); null on sessions started before it was kept */
  trades_from: Date | null;
  /** The exchange's last price when the session started: its first step's price (`session-bars.ts`) */
  start_price: number | null;
  /** The session was started sharing its symbol with what the account already traded there (`symbol-sharing.ts`) */
  shares_symbol: boolean;
  /** Live on an account in hedge mode: the side of its symbol the bot holds (every order names it); else null */
  position_side: HedgeSide | null;
  stopped_at: Date | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
}

/**
 * The account a bot trades on: its owner's keys on its own environment, read from its row once when its session
 * starts (or when work is done for it after it stopped), never its owner's current environment
 */
export const accountOfBot = (row: Pick<BotRow, 'user_id' | 'environment'>): TradingAccount => ({
  userId: row.user_id,
  environment: row.environment,
});

export interface BotEventRow {
  id: string;
  bot_id: string;
  user_id: string;
  kind: BotEventKind;
  message: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** The states a stop ends in: `paused` keeps the bot's orders standing, the others cancel them */
export type BotEndState = 'stopped' | 'error' | 'paused';

/** What a user may change on a stopped bot */
export type BotSettings = Pick<
  BotRow,
  'name' | 'strategy' | 'params' | 'symbol' | 'interval' | 'leverage' | 'budget' | 'mode' | 'risk_limits'
>;

const COLUMNS = `id, user_id, kind, name, strategy, params, symbol, interval, leverage, budget, mode, environment, risk_limits,
  state, stop_reason, stop_state, created_at, updated_at, started_at, trades_from, start_price, shares_symbol, position_side, stopped_at, lease_owner, lease_expires_at`;

/** States in which the owner wants the bot to run: a process holds (or is about to take) its lease */
const ACTIVE = `state IN ('starting', 'running')`;
/** The owner's bot `$1` of user `$2` while nothing runs it: the only one its owner may change or start */
const OWNED_IDLE = `id = $1 AND user_id = $2 AND state IN ('stopped', 'error', 'paused')`;
/** The same, with no order of its own left standing (a paused bot's are): the only one its owner may delete */
const OWNED_DELETABLE = `id = $1 AND user_id = $2 AND state IN ('stopped', 'error')`;
/** States in which a process holds the bot's lease: running it, or finishing its stop (its orders being canceled) */
const HELD = `state IN ('starting', 'running', 'stopping')`;
/** The same states: a session is open (its figures are the running instance's, not yet the log's) */
const OPEN_STATES: ReadonlySet<BotState> = new Set(['starting', 'running', 'stopping']);

// node-postgres returns numeric as a string
const toRow = (r: Record<string, unknown>): BotRow =>
  ({
    ...r,
    budget: Number(r.budget),
    leverage: Number(r.leverage),
    start_price: r.start_price === null || r.start_price === undefined ? null : Number(r.start_price),
  }) as BotRow;
/** The one row a statement returned, if any */
const firstRow = (rows: Record<string, unknown>[]): BotRow | undefined =>
  rows[0] ? toRow(rows[0]) : undefined;

/** An AI agent is a bot whose strategy is the trained model (issue 18); its kind follows its strategy */
export const botKindOf = (strategy: string): BotKind => (strategy === 'ml-agent' ? 'agent' : 'bot');

/** Thin SQL for bots and their log; user-facing reads and writes are always addressed by the owner */
export const botRepository = {
  async insert(
    db: Queryable,
    row: BotSettings & Pick<BotRow, 'id' | 'user_id' | 'kind' | 'created_at' | 'environment'>,
  ): Promise<BotRow> {
    const rows = await db.query(
      `INSERT INTO bots (id, user_id, kind, name, strategy, params, symbol, interval, leverage, budget, mode,
         risk_limits, state, created_at, updated_at, environment)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'stopped', $13, $13, $14)
       RETURNING ${COLUMNS}`,
      [
        row.id,
        row.user_id,
        row.kind,
        row.name,
        row.strategy,
        JSON.stringify(row.params),
        row.symbol,
        row.interval,
        row.leverage,
        row.budget,
        row.mode,
        JSON.stringify(row.risk_limits),
        row.created_at,
        row.environment,
      ],
    );
    return toRow(rows[0] as Record<string, unknown>);
  },

  async count(db: Queryable, userId: string): Promise<number> {
    const rows = await db.query<{ n: number | string }>('SELECT count(*) AS n FROM bots WHERE user_id = $1', [
      userId,
    ]);
    return Number(rows[0]?.n ?? 0);
  },

  /** Bots the owner wants running (the dashboard's "active bots") */
  async countActive(db: Queryable, userId: string): Promise<number> {
    const rows = await db.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM bots WHERE user_id = $1 AND ${ACTIVE}`,
      [userId],
    );
    return Number(rows[0]?.n ?? 0);
  },

  async list(db: Queryable, userId: string): Promise<BotRow[]> {
    const rows = await db.query(`SELECT ${COLUMNS} FROM bots WHERE user_id = $1 ORDER BY created_at, id`, [
      userId,
    ]);
    return rows.map(toRow);
  },

  async find(db: Queryable, userId: string, id: string): Promise<BotRow | undefined> {
    const rows = await db.query(`SELECT ${COLUMNS} FROM bots WHERE id = $1 AND user_id = $2`, [id, userId]);
    return firstRow(rows);
  },

  /** Changes the settings of a bot that is not running; undefined when it is running (or gone) */
  async update(
    db: Queryable,
    userId: string,
    id: string,
    settings: BotSettings,
    now: Date,
  ): Promise<BotRow | undefined> {
    const rows = await db.query(
      `UPDATE bots SET name = $3, strategy = $4, params = $5, symbol = $6, interval = $7, leverage = $8,
          budget = $9, mode = $10, risk_limits = $11, updated_at = $12, kind = $13
        WHERE ${OWNED_IDLE}
        RETURNING ${COLUMNS}`,
      [
        id,
        userId,
        settings.name,
        settings.strategy,
        JSON.stringify(settings.params),
        settings.symbol,
        settings.interval,
        settings.leverage,
        settings.budget,
        settings.mode,
        JSON.stringify(settings.risk_limits),
        now,
        botKindOf(settings.strategy),
      ],
    );
    return firstRow(rows);
  },

  /** Deletes a bot that is not running (its log goes with it); false when it is running or unknown */
  async delete(db: Queryable, userId: string, id: string): Promise<boolean> {
    const rows = await db.query(`DELETE FROM bots WHERE ${OWNED_DELETABLE} RETURNING id`, [id, userId]);
    return rows.length > 0;
  },

  /**
   * Marks a stopped bot as starting, held by `owner` until `leaseUntil`; undefined when it is already active. The
   * `starting` row is what another instance would take over should this one die before the bot runs
   */
  async start(
    db: Queryable,
    userId: string,
    id: string,
    owner: string,
    now: Date,
    leaseUntil: Date,
    tradesFrom: Date,
    on: { sharesSymbol?: boolean; positionSide?: HedgeSide } = {},
  ): Promise<BotRow | undefined> {
    const rows = await db.query(
      // A session's orders are keyed by its start to the millisecond: one started within the millisecond the last
      // began (a restart with new settings on a fast machine) starts a millisecond later, so no key is reused
      `UPDATE bots SET state = 'starting', stop_reason = NULL,
          started_at = GREATEST($3, started_at + interval '1 millisecond'), trades_from = $6, start_price = NULL,
          shares_symbol = $7, position_side = $8, stopped_at = NULL,
          updated_at = $3, lease_owner = $4, lease_expires_at = $5
        WHERE ${OWNED_IDLE}
        RETURNING ${COLUMNS}`,
      [id, userId, now, owner, leaseUntil, tradesFrom, on.sharesSymbol === true, on.positionSide ?? null],
    );
    return firstRow(rows);
  },

  /** The bot runs on `owner`: state running, unless it was stopped meanwhile (then false) */
  async markRunning(db: Queryable, id: string, owner: string, now: Date): Promise<boolean> {
    const rows = await db.query(
      `UPDATE bots SET state = 'running', updated_at = $3
        WHERE id = $1 AND lease_owner = $2 AND ${ACTIVE} RETURNING id`,
      [id, owner, now],
    );
    return rows.length > 0;
  },

  /**
   * Begins stopping an active bot: `stopping` with the reason and the state it will end in (stopped, error or
   * paused), its lease kept, so whoever holds it (or takes it over) cancels its orders (keeps them, to pause) and
   * then `finishStop`s it. A paused bot may be stopped or failed too (nobody holds it: the asker settles it, its
   * kept orders canceled). `owner` (when given) must still hold it. The stopping row, or undefined when it was not
   * active
   */
  async beginStop(
    db: Queryable,
    id: string,
    state: BotEndState,
    reason: string,
    now: Date,
    owner?: string,
  ): Promise<BotRow | undefined> {
    const from = state === 'paused' ? ACTIVE : `state IN ('starting', 'running', 'paused')`;
    const rows = await db.query(
      `UPDATE bots SET state = 'stopping', stop_state = $2, stop_reason = $3, updated_at = $4
        WHERE id = $1 AND ${from} AND ($5::text IS NULL OR lease_owner = $5)
        RETURNING ${COLUMNS}`,
      [id, state, reason, now, owner ?? null],
    );
    return firstRow(rows);
  },

  /**
   * Ends a `stopping` bot in the state its stop asked for, its lease dropped (no instance runs or resumes it);
   * `owner` (when given) must hold it. The stopped row, or undefined when it was not stopping (or not `owner`'s)
   */
  async finishStop(db: Queryable, id: string, now: Date, owner?: string): Promise<BotRow | undefined> {
    const rows = await db.query(
      `UPDATE bots SET state = coalesce(stop_state, 'stopped'), stop_state = NULL, stopped_at = $2, updated_at = $2,
          lease_owner = NULL, lease_expires_at = NULL
        WHERE id = $1 AND state = 'stopping' AND ($3::text IS NULL OR lease_owner = $3)
        RETURNING ${COLUMNS}`,
      [id, now, owner ?? null],
    );
    return firstRow(rows);
  },

  /**
   * Takes the lease of a `stopping` bot nobody holds (its instance died, or handed it back) or `owner` holds
   * already, to finish its stop; undefined when a live instance holds it
   */
  async takeStop(
    db: Queryable,
    id: string,
    owner: string,
    now: Date,
    leaseUntil: Date,
  ): Promise<BotRow | undefined> {
    const rows = await db.query(
      `UPDATE bots SET lease_owner = $2, lease_expires_at = $4
        WHERE id = $1 AND state = 'stopping'
          AND (lease_owner IS NULL OR lease_owner = $2 OR lease_expires_at IS NULL OR lease_expires_at < $3)
        RETURNING ${COLUMNS}`,
      [id, owner, now, leaseUntil],
    );
    return firstRow(rows);
  },

  /** Live bots of the user on `symbol` that are active, other than `exceptId` (they share its dead-man switch) */
  async otherLiveOnSymbol(
    db: Queryable,
    userId: string,
    symbol: string,
    exceptId: string,
    environment: TradingEnvironment,
    /** Only the bots holding this side (hedge mode); undefined: every one */
    side?: HedgeSide,
    /**
     * Paused bots count too: their orders stand and may fill, moving the symbol's position. Not for the dead-man
     * switch, which a paused bot has let go of (kept armed for it, it would cancel the orders it left standing)
     */
    withPaused = false,
  ): Promise<number> {
    const states = withPaused ? `state IN ('starting', 'running', 'paused')` : ACTIVE;
    const rows = await db.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM bots
        WHERE user_id = $1 AND symbol = $2 AND id <> $3 AND mode = 'live' AND environment = $4 AND ${states}
          AND ($5::text IS NULL OR position_side = $5)`,
      [userId, symbol, exceptId, environment, side ?? null],
    );
    return Number(rows[0]?.n ?? 0);
  },

  /** The running session's figures, as its instance last wrote them (one row per bot, replaced) */
  async saveStatus(
    db: Queryable,
    botId: string,
    sessionStartedAt: Date,
    figures: Record<string, unknown>,
    now: Date,
  ): Promise<void> {
    await db.query(
      `INSERT INTO bot_status (bot_id, session_started_at, figures, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (bot_id) DO UPDATE SET session_started_at = $2, figures = $3, updated_at = $4`,
      [botId, sessionStartedAt, JSON.stringify(figures), now],
    );
  },

  /** Figures of the bots' current sessions (rows of an earlier session than the bot's `started_at` left out) */
  async statusOf(
    db: Queryable,
    bots: ReadonlyArray<Pick<BotRow, 'id' | 'started_at'>>,
  ): Promise<Map<string, { figures: Record<string, unknown>; updatedAt: Date }>> {
    const out = new Map<string, { figures: Record<string, unknown>; updatedAt: Date }>();
    const current = bots.filter((b) => b.started_at);
    if (current.length === 0) return out;
    const rows = await db.query<{
      bot_id: string;
      session_started_at: Date;
      figures: Record<string, unknown>;
      updated_at: Date;
    }>(
      `SELECT bot_id, session_started_at, figures, updated_at FROM bot_status WHERE bot_id = ANY($1::uuid[])`,
      [current.map((b) => b.id)],
    );
    const startedAt = new Map(current.map((b) => [b.id, b.started_at?.getTime()]));
    for (const r of rows) {
      if (new Date(r.session_started_at).getTime() !== startedAt.get(r.bot_id)) continue;
      out.set(r.bot_id, { figures: r.figures, updatedAt: new Date(r.updated_at) });
    }
    return out;
  },

  /** A paused session's figures go with it: its PnL is in the line that paused it, counted from there */
  async dropStatus(db: Queryable, botId: string): Promise<void> {
    await db.query('DELETE FROM bot_status WHERE bot_id = $1', [botId]);
  },

  /** A new name, whatever the bot's state (a running bot's name changes at once); undefined when not the user's */
  async rename(
    db: Queryable,
    userId: string,
    id: string,
    name: string,
    now: Date,
  ): Promise<BotRow | undefined> {
    const rows = await db.query(
      `UPDATE bots SET name = $3, updated_at = $4 WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
      [id, userId, name, now],
    );
    return firstRow(rows);
  },

  /** Bots of a user running or paused, whose orders may stand (the kill switch and account deletion stop them) */
  async activeOf(db: Queryable, userId: string): Promise<BotRow[]> {
    const rows = await db.query(
      `SELECT ${COLUMNS} FROM bots WHERE user_id = $1 AND state IN ('starting', 'running', 'paused')`,
      [userId],
    );
    return rows.map(toRow);
  },

  /**
   * Extends `owner`'s leases on `ids`; returns the ids it still holds with their state (a missing one was stopped
   * or taken over; a `stopping` one is being stopped, and this instance, holding it, finishes the stop)
   */
  async renew(
    db: Queryable,
    owner: string,
    ids: readonly string[],
    leaseUntil: Date,
  ): Promise<Map<string, BotState>> {
    if (ids.length === 0) return new Map();
    const rows = await db.query<{ id: string; state: BotState }>(
      `UPDATE bots SET lease_expires_at = $3
        WHERE id = ANY($2::uuid[]) AND lease_owner = $1 AND ${HELD} RETURNING id, state`,
      [owner, ids, leaseUntil],
    );
    return new Map(rows.map((r) => [r.id, r.state]));
  },

  /**
   * Takes one active or stopping bot nobody holds (its process stopped and handed it back, or died and its lease
   * ran out): an active one is resumed, a stopping one has its stop finished. `SKIP LOCKED` lets instances claim
   * side by side; the UPDATE re-checks the lease after a concurrent renewal
   */
  async claim(db: Queryable, owner: string, now: Date, leaseUntil: Date): Promise<BotRow | undefined> {
    const free = `${HELD} AND (lease_owner IS NULL OR lease_expires_at IS NULL OR lease_expires_at < $2)`;
    const rows = await db.query(
      `UPDATE bots SET lease_owner = $1, lease_expires_at = $3
        WHERE id = (SELECT id FROM bots WHERE ${free} ORDER BY lease_expires_at NULLS FIRST LIMIT 1
                    FOR UPDATE SKIP LOCKED)
          AND ${free}
        RETURNING ${COLUMNS}`,
      [owner, now, leaseUntil],
    );
    return firstRow(rows);
  },

  /** Hands `owner`'s bots back (the process is stopping): they stay active, for another instance to resume */
  async release(db: Queryable, owner: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await db.query(
      `UPDATE bots SET lease_owner = NULL, lease_expires_at = NULL
        WHERE id = ANY($2::uuid[]) AND lease_owner = $1`,
      [owner, ids],
    );
  },

  async insertEvent(db: Queryable, event: BotEventRow): Promise<void> {
    await db.query(
      `INSERT INTO bot_events (id, bot_id, user_id, kind, message, data, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        event.id,
        event.bot_id,
        event.user_id,
        event.kind,
        event.message,
        JSON.stringify(event.data),
        event.created_at,
      ],
    );
  },

  /** The bot's log, newest first; `before` (ms) pages back */
  /** The bot's fill lines, oldest first, the newest `limit` of them (a bot's chart and PnL curve) */
  async fillEvents(db: Queryable, botId: string, limit: number): Promise<BotEventRow[]> {
    const rows = await db.query<BotEventRow & Record<string, unknown>>(
      `SELECT id, bot_id, user_id, kind, message, data, created_at FROM bot_events
        WHERE bot_id = $1 AND kind = 'order_filled' ORDER BY seq DESC LIMIT $2`,
      [botId, limit],
    );
    return rows.reverse();
  },

  async events(db: Queryable, botId: string, limit: number, before?: number): Promise<BotEventRow[]> {
    return db.query<BotEventRow & Record<string, unknown>>(
      `SELECT id, bot_id, user_id, kind, message, data, created_at FROM bot_events
        WHERE bot_id = $1 AND ($3::timestamptz IS NULL OR created_at < $3)
        ORDER BY seq DESC LIMIT $2`,
      [botId, limit, before === undefined ? null : new Date(before)],
    );
  },

  /**
   * PnL of the bot's finished sessions (each session's end is logged with `data.sessionPnl` and
   * `data.sessionStartedAt`): in total, and those that ended since `dayStart`. An open session's end (a bot still
   * `stopping`, its figures still read as the open session's) is left out: its PnL counts once, as open figures,
   * until the bot is stopped
   */
  async pastPnl(
    db: Queryable,
    bots: ReadonlyArray<Pick<BotRow, 'id' | 'state' | 'started_at'>>,
    dayStart: Date,
  ): Promise<Map<string, { total: number; today: number }>> {
    const out = new Map<string, { total: number; today: number }>();
    if (bots.length === 0) return out;
    const openSessions = bots
      .filter((b) => OPEN_STATES.has(b.state) && b.started_at)
      .map((b) => `${b.id}:${b.started_at?.getTime()}`);
    const rows = await db.query<{ bot_id: string; total: string | number; today: string | number }>(
      `SELECT bot_id, coalesce(sum((data->>'sessionPnl')::float8), 0) AS total,
              coalesce(sum((data->>'sessionPnl')::float8) FILTER (WHERE created_at >= $2), 0) AS today
         FROM bot_events
        WHERE bot_id = ANY($1::uuid[]) AND data ? 'sessionPnl'
          AND NOT (data ? 'sessionStartedAt'
                   AND bot_id::text || ':' || (data->>'sessionStartedAt') = ANY($3::text[]))
        GROUP BY bot_id`,
      [bots.map((b) => b.id), dayStart, openSessions],
    );
    for (const r of rows) out.set(r.bot_id, { total: Number(r.total), today: Number(r.today) });
    return out;
  },
};

export type BotRepository = typeof botRepository;
