import type { TradingEnvironment } from '@kestrel/contracts';
import type { BotKind, BotMode, BotRiskLimits, BotState } from '@kestrel/contracts/bots';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { Queryable } from '../../lib/database/database';
import { botEventRepository } from './bot-event-repository';
import { botStatusRepository } from './bot-status-repository';

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

/** The states a stop ends in: `paused` keeps the bot's orders standing, the others cancel them */
export type BotEndState = 'stopped' | 'error' | 'paused';

/** What a user may change on a stopped bot */
export type BotSettings = Pick<
  BotRow,
  'name' | 'strategy' | 'params' | 'symbol' | 'interval' | 'leverage' | 'budget' | 'mode' | 'risk_limits'
>;

/** The columns of a BotRow, in every statement that returns one (the lease queries too) */
export const BOT_COLUMNS = `id, user_id, kind, name, strategy, params, symbol, interval, leverage, budget, mode, environment, risk_limits,
  state, stop_reason, stop_state, created_at, updated_at, started_at, trades_from, start_price, shares_symbol, position_side, stopped_at, lease_owner, lease_expires_at`;

/** States in which the owner wants the bot to run: a process holds (or is about to take) its lease */
export const ACTIVE_STATES = `state IN ('starting', 'running')`;
/** The owner's bot `$1` of user `$2` while nothing runs it: the only one its owner may change or start */
export const OWNED_IDLE = `id = $1 AND user_id = $2 AND state IN ('stopped', 'error', 'paused')`;
/** The same, with no order of its own left standing (a paused bot's are): the only one its owner may delete */
const OWNED_DELETABLE = `id = $1 AND user_id = $2 AND state IN ('stopped', 'error')`;
/** States in which a process holds the bot's lease: running it, or finishing its stop (its orders being canceled) */
export const HELD_STATES = `state IN ('starting', 'running', 'stopping')`;

// node-postgres returns numeric as a string
const toRow = (r: Record<string, unknown>): BotRow =>
  ({
    ...r,
    budget: Number(r.budget),
    leverage: Number(r.leverage),
    start_price: r.start_price === null || r.start_price === undefined ? null : Number(r.start_price),
  }) as BotRow;
/** The one row a statement returned, if any */
export const firstBotRow = (rows: Record<string, unknown>[]): BotRow | undefined =>
  rows[0] ? toRow(rows[0]) : undefined;

/** An AI agent is a bot whose strategy is the trained model (issue 18); its kind follows its strategy */
export const botKindOf = (strategy: string): BotKind => (strategy === 'ml-agent' ? 'agent' : 'bot');

/**
 * Thin SQL for the bots table: the owner's reads and writes (always addressed by the owner), the ask to stop and
 * the look at the other live bots on a symbol. An instance's hold on a bot is `botLeaseRepository`'s
 */
export const botRepository = {
  async insert(
    db: Queryable,
    row: BotSettings & Pick<BotRow, 'id' | 'user_id' | 'kind' | 'created_at' | 'environment'>,
  ): Promise<BotRow> {
    const rows = await db.query(
      `INSERT INTO bots (id, user_id, kind, name, strategy, params, symbol, interval, leverage, budget, mode,
         risk_limits, state, created_at, updated_at, environment)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'stopped', $13, $13, $14)
       RETURNING ${BOT_COLUMNS}`,
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
      `SELECT count(*) AS n FROM bots WHERE user_id = $1 AND ${ACTIVE_STATES}`,
      [userId],
    );
    return Number(rows[0]?.n ?? 0);
  },

  async list(db: Queryable, userId: string): Promise<BotRow[]> {
    const rows = await db.query(
      `SELECT ${BOT_COLUMNS} FROM bots WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
    return rows.map(toRow);
  },

  async find(db: Queryable, userId: string, id: string): Promise<BotRow | undefined> {
    const rows = await db.query(`SELECT ${BOT_COLUMNS} FROM bots WHERE id = $1 AND user_id = $2`, [
      id,
      userId,
    ]);
    return firstBotRow(rows);
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
        RETURNING ${BOT_COLUMNS}`,
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
    return firstBotRow(rows);
  },

  /** Deletes a bot that is not running (its log goes with it); false when it is running or unknown */
  async delete(db: Queryable, userId: string, id: string): Promise<boolean> {
    const rows = await db.query(`DELETE FROM bots WHERE ${OWNED_DELETABLE} RETURNING id`, [id, userId]);
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
    const from = state === 'paused' ? ACTIVE_STATES : `state IN ('starting', 'running', 'paused')`;
    const rows = await db.query(
      `UPDATE bots SET state = 'stopping', stop_state = $2, stop_reason = $3, updated_at = $4
        WHERE id = $1 AND ${from} AND ($5::text IS NULL OR lease_owner = $5)
        RETURNING ${BOT_COLUMNS}`,
      [id, state, reason, now, owner ?? null],
    );
    return firstBotRow(rows);
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
    const states = withPaused ? `state IN ('starting', 'running', 'paused')` : ACTIVE_STATES;
    const rows = await db.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM bots
        WHERE user_id = $1 AND symbol = $2 AND id <> $3 AND mode = 'live' AND environment = $4 AND ${states}
          AND ($5::text IS NULL OR position_side = $5)`,
      [userId, symbol, exceptId, environment, side ?? null],
    );
    return Number(rows[0]?.n ?? 0);
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
      `UPDATE bots SET name = $3, updated_at = $4 WHERE id = $1 AND user_id = $2 RETURNING ${BOT_COLUMNS}`,
      [id, userId, name, now],
    );
    return firstBotRow(rows);
  },

  /** Bots of a user running or paused, whose orders may stand (the kill switch and account deletion stop them) */
  async activeOf(db: Queryable, userId: string): Promise<BotRow[]> {
    const rows = await db.query(
      `SELECT ${BOT_COLUMNS} FROM bots WHERE user_id = $1 AND state IN ('starting', 'running', 'paused')`,
      [userId],
    );
    return rows.map(toRow);
  },

  // The log and the running figures have their own tables and files; spread here, `botRepository` is still the one
  // name for every query of a bot outside this folder
  ...botEventRepository,
  ...botStatusRepository,
};

export type BotRepository = typeof botRepository;
