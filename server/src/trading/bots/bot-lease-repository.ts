import type { BotState } from '@kestrel/contracts/bots';
import type { Queryable } from '../../lib/database/database';
import {
  ACTIVE_STATES,
  BOT_COLUMNS,
  type BotRow,
  firstBotRow,
  HELD_STATES,
  type HedgeSide,
  OWNED_IDLE,
} from './bot-repository';

/**
 * Thin SQL for an instance's hold on its bots (`lease_owner`/`lease_expires_at`, migration 007): taking a bot's
 * lease (a start, a claim, a stop to finish), keeping it (running it, renewing) and giving it up (a finished stop,
 * a shutdown). The runner's queries; a stop is asked with `botRepository.beginStop`
 */
export const botLeaseRepository = {
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
        RETURNING ${BOT_COLUMNS}`,
      [id, userId, now, owner, leaseUntil, tradesFrom, on.sharesSymbol === true, on.positionSide ?? null],
    );
    return firstBotRow(rows);
  },

  /** The bot runs on `owner`: state running, unless it was stopped meanwhile (then false) */
  async markRunning(db: Queryable, id: string, owner: string, now: Date): Promise<boolean> {
    const rows = await db.query(
      `UPDATE bots SET state = 'running', updated_at = $3
        WHERE id = $1 AND lease_owner = $2 AND ${ACTIVE_STATES} RETURNING id`,
      [id, owner, now],
    );
    return rows.length > 0;
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
        RETURNING ${BOT_COLUMNS}`,
      [id, now, owner ?? null],
    );
    return firstBotRow(rows);
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
        RETURNING ${BOT_COLUMNS}`,
      [id, owner, now, leaseUntil],
    );
    return firstBotRow(rows);
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
        WHERE id = ANY($2::uuid[]) AND lease_owner = $1 AND ${HELD_STATES} RETURNING id, state`,
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
    const free = `${HELD_STATES} AND (lease_owner IS NULL OR lease_expires_at IS NULL OR lease_expires_at < $2)`;
    const rows = await db.query(
      `UPDATE bots SET lease_owner = $1, lease_expires_at = $3
        WHERE id = (SELECT id FROM bots WHERE ${free} ORDER BY lease_expires_at NULLS FIRST LIMIT 1
                    FOR UPDATE SKIP LOCKED)
          AND ${free}
        RETURNING ${BOT_COLUMNS}`,
      [owner, now, leaseUntil],
    );
    return firstBotRow(rows);
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
};
