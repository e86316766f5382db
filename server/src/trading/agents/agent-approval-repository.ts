import type { AgentApproval } from '@kestrel/contracts/agents';
import type { Queryable } from '../../lib/database/database';
import type { AgentExecution } from './agent-decision-repository';

export interface ApprovalRow extends Record<string, unknown> {
  id: string;
  bot_id: string;
  decision_id: string;
  action: AgentExecution['action'];
  size_fraction: number;
  stop_pct: number | null;
  state: AgentApproval['state'];
  created_at: Date;
  expires_at: Date;
  decided_at: Date | null;
  executed_bar: string | null;
  note: string | null;
}

const APPROVAL_COLUMNS = `id::text AS id, bot_id, decision_id::text AS decision_id, action, size_fraction, stop_pct,
  state, created_at, expires_at, decided_at, executed_bar::text AS executed_bar, note`;

/**
 * Thin SQL for the approval queue (`agent_approvals`): proposals of stage live_approval waiting for the owner's
 * click, with their time limit, and what became of them. Addressed through the bot (owner checked by the service)
 */
export const agentApprovalRepository = {
  async insertApproval(
    db: Queryable,
    row: {
      botId: string;
      decisionId: string;
      execution: AgentExecution;
      createdAt: Date;
      expiresAt: Date;
    },
  ): Promise<ApprovalRow> {
    const rows = await db.query<ApprovalRow>(
      `INSERT INTO agent_approvals (bot_id, decision_id, action, size_fraction, stop_pct, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${APPROVAL_COLUMNS}`,
      [
        row.botId,
        row.decisionId,
        row.execution.action,
        row.execution.sizeFraction,
        row.execution.stopPct,
        row.createdAt,
        row.expiresAt,
      ],
    );
    return rows[0] as ApprovalRow;
  },

  async approvals(db: Queryable, botId: string, limit = 100): Promise<ApprovalRow[]> {
    return db.query<ApprovalRow>(
      `SELECT ${APPROVAL_COLUMNS} FROM agent_approvals WHERE bot_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [botId, limit],
    );
  },

  async approval(db: Queryable, botId: string, id: string): Promise<ApprovalRow | undefined> {
    const rows = await db.query<ApprovalRow>(
      `SELECT ${APPROVAL_COLUMNS} FROM agent_approvals WHERE bot_id = $1 AND id = $2`,
      [botId, id],
    );
    return rows[0];
  },

  async countPending(db: Queryable, botId: string): Promise<number> {
    const rows = await db.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM agent_approvals WHERE bot_id = $1 AND state = 'pending'`,
      [botId],
    );
    return Number(rows[0]?.n ?? 0);
  },

  /**
   * Moves a pending approval to `state`; undefined when it was no longer pending (decided, expired): the caller
   * answers 409. One statement, so two clicks cannot both win
   */
  async decideApproval(
    db: Queryable,
    botId: string,
    id: string,
    state: 'approved' | 'rejected' | 'expired' | 'failed',
    note: string,
    now: Date,
  ): Promise<ApprovalRow | undefined> {
    const rows = await db.query<ApprovalRow>(
      `UPDATE agent_approvals SET state = $3, note = $4, decided_at = $5
       WHERE bot_id = $1 AND id = $2 AND state = 'pending' RETURNING ${APPROVAL_COLUMNS}`,
      [botId, id, state, note, now],
    );
    return rows[0];
  },

  /** Approved proposals not yet executed: the next bar's close executes them (through the guard) */
  async approvedWaiting(db: Queryable, botId: string): Promise<ApprovalRow[]> {
    return db.query<ApprovalRow>(
      `SELECT ${APPROVAL_COLUMNS} FROM agent_approvals
       WHERE bot_id = $1 AND state = 'approved' AND executed_bar IS NULL ORDER BY created_at, id`,
      [botId],
    );
  },

  async markExecuted(db: Queryable, id: string, barTime: number, state: 'approved' | 'failed', note: string) {
    await db.query('UPDATE agent_approvals SET executed_bar = $2, state = $3, note = $4 WHERE id = $1', [
      id,
      barTime,
      state,
      note,
    ]);
  },

  /**
   * Pending proposals past their time limit become `expired` (recorded; returned); approved ones still not carried
   * out a time limit later become `failed`
   */
  async expireApprovals(db: Queryable, botId: string, now: Date): Promise<ApprovalRow[]> {
    const expired = await db.query<ApprovalRow>(
      `UPDATE agent_approvals SET state = 'expired', decided_at = expires_at,
         note = 'Expired unanswered: nothing was sent'
       WHERE bot_id = $1 AND state = 'pending' AND expires_at <= $2 RETURNING ${APPROVAL_COLUMNS}`,
      [botId, now],
    );
    // An approved proposal the agent could not carry out (it was exiting, or stopped) for as long again is stale
    await db.query(
      `UPDATE agent_approvals SET state = 'failed',
         note = 'Approved, but not carried out before the market moved on: nothing was sent'
       WHERE bot_id = $1 AND state = 'approved' AND executed_bar IS NULL
         AND expires_at + (expires_at - created_at) <= $2`,
      [botId, now],
    );
    return expired;
  },

  /** Every pending proposal of the agent is dropped (kill, stage change): recorded as rejected with the reason */
  async dropPending(db: Queryable, botId: string, note: string, now: Date): Promise<number> {
    const rows = await db.query(
      `UPDATE agent_approvals SET state = 'rejected', note = $2, decided_at = $3
       WHERE bot_id = $1 AND state IN ('pending') RETURNING id`,
      [botId, note, now],
    );
    await db.query(
      `UPDATE agent_approvals SET state = 'failed', note = $2, decided_at = coalesce(decided_at, $3)
       WHERE bot_id = $1 AND state = 'approved' AND executed_bar IS NULL`,
      [botId, note, now],
    );
    return rows.length;
  },

  async countExecutedApprovals(db: Queryable, botId: string): Promise<number> {
    const rows = await db.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM agent_approvals WHERE bot_id = $1 AND state = 'approved' AND executed_bar IS NOT NULL`,
      [botId],
    );
    return Number(rows[0]?.n ?? 0);
  },
};
