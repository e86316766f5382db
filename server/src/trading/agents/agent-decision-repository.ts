import type {
  AgentDecisionOutcome,
  AgentDecisionRecord,
  AgentDecisionSummary,
  AgentStage,
} from '@kestrel/contracts/agents';
import type { Queryable } from '../../lib/database/database';

/** What the account executed at a bar's close (replayed after a restart, so the account stands where it stood) */
export interface AgentExecution {
  action: 'enter_long' | 'enter_short' | 'exit';
  sizeFraction: number;
  stopPct: number | null;
}

export interface StoredDecision {
  id: string;
  botId: string;
  barTime: number;
  executed: AgentExecution | null;
  record: AgentDecisionRecord;
}

/** The columns `toDecision` reads */
const DECISION_COLUMNS = 'id, bot_id, bar_time, outcome, note, executed, record';

const toDecision = (r: Record<string, unknown>): StoredDecision => {
  const record = r.record as AgentDecisionRecord;
  const id = String(r.id);
  return {
    id,
    botId: String(r.bot_id),
    barTime: Number(r.bar_time),
    executed: (r.executed as AgentExecution | null) ?? null,
    record: { ...record, id, outcome: r.outcome as AgentDecisionOutcome, note: String(r.note) },
  };
};

/** The bot's decision whose `key` (its id or its bar, both unique per bot) is `value` */
async function oneDecision(
  db: Queryable,
  botId: string,
  key: 'id' | 'bar_time',
  value: string | number,
): Promise<StoredDecision | undefined> {
  const [row] = await db.query(
    `SELECT ${DECISION_COLUMNS} FROM agent_decisions WHERE bot_id = $1 AND ${key} = $2`,
    [botId, value],
  );
  return row ? toDecision(row) : undefined;
}

export function summaryOf(record: AgentDecisionRecord): AgentDecisionSummary {
  return {
    id: record.id,
    agentId: record.agentId,
    barTime: record.barTime,
    time: record.time,
    action: record.action,
    outcome: record.outcome,
    reasonCodes: record.reasonCodes,
    sizeFraction: record.sizeFraction,
    pUp: record.pUp,
    pDown: record.pDown,
    threshold: record.threshold,
    modelId: record.modelId,
    stage: record.stage,
    reviewVerdict: record.reviewVerdict,
    note: record.note,
  };
}

/**
 * Thin SQL for the agent's decision records (`agent_decisions`, one per closed bar, holds included) and what the
 * account executed at each bar (replayed after a restart). Addressed through the bot (owner checked by the service)
 */
export const agentDecisionRepository = {
  /** Writes one bar's record; a bar already recorded (a replay) is left as it was. Returns the stored one */
  async insertDecision(
    db: Queryable,
    row: {
      botId: string;
      userId: string;
      executed: AgentExecution | null;
      record: Omit<AgentDecisionRecord, 'id'>;
    },
  ): Promise<StoredDecision> {
    const { record } = row;
    const rows = await db.query(
      `INSERT INTO agent_decisions (bot_id, user_id, bar_time, created_at, stage, action, outcome, note, executed, record)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (bot_id, bar_time) DO NOTHING
       RETURNING ${DECISION_COLUMNS}`,
      [
        row.botId,
        row.userId,
        record.barTime,
        new Date(record.time),
        record.stage,
        record.action,
        record.outcome,
        record.note,
        row.executed ? JSON.stringify(row.executed) : null,
        JSON.stringify({ ...record, id: '0' }),
      ],
    );
    if (rows[0]) return toDecision(rows[0]);
    const existing = await agentDecisionRepository.decisionAt(db, row.botId, record.barTime);
    if (!existing) throw new Error(`The decision of bar ${record.barTime} was neither written nor found`);
    return existing;
  },

  decisionAt(db: Queryable, botId: string, barTime: number): Promise<StoredDecision | undefined> {
    return oneDecision(db, botId, 'bar_time', barTime);
  },

  decision(db: Queryable, botId: string, id: string): Promise<StoredDecision | undefined> {
    return oneDecision(db, botId, 'id', id);
  },

  /** Newest first, bars opened before `before` */
  async decisions(
    db: Queryable,
    botId: string,
    before: number | undefined,
    limit: number,
  ): Promise<StoredDecision[]> {
    const rows = await db.query(
      `SELECT ${DECISION_COLUMNS} FROM agent_decisions
       WHERE bot_id = $1 AND ($2::bigint IS NULL OR bar_time < $2) ORDER BY bar_time DESC LIMIT $3`,
      [botId, before ?? null, limit],
    );
    return rows.map(toDecision);
  },

  /** What the account executed at the bars of [from, to): the decisions' and the approvals' */
  async executions(
    db: Queryable,
    botId: string,
    from: number,
    to: number,
  ): Promise<Map<number, AgentExecution>> {
    const out = new Map<number, AgentExecution>();
    const decided = await db.query<{ bar_time: string | number; executed: AgentExecution }>(
      `SELECT bar_time, executed FROM agent_decisions
       WHERE bot_id = $1 AND bar_time >= $2 AND bar_time < $3 AND executed IS NOT NULL`,
      [botId, from, to],
    );
    for (const r of decided) out.set(Number(r.bar_time), r.executed);
    // Approved proposals carried out at a bar (their own record is the bar's decision, not the approval)
    const approved = await db.query<{
      executed_bar: string;
      action: AgentExecution['action'];
      size_fraction: number;
      stop_pct: number | null;
    }>(
      `SELECT executed_bar::text AS executed_bar, action, size_fraction, stop_pct FROM agent_approvals
       WHERE bot_id = $1 AND state = 'approved' AND executed_bar >= $2 AND executed_bar < $3`,
      [botId, from, to],
    );
    for (const a of approved) {
      out.set(Number(a.executed_bar), {
        action: a.action,
        sizeFraction: a.size_fraction,
        stopPct: a.stop_pct,
      });
    }
    return out;
  },

  /**
   * The newest execution carried out before `before` (an order refused is not one), with the close it was carried
   * out at: what the agent's open position came from, and so where its stop stands
   */
  async lastExecution(
    db: Queryable,
    botId: string,
    before: number,
  ): Promise<{ barTime: number; executed: AgentExecution; price: number } | undefined> {
    const rows = await db.query<{
      bar_time: string | number;
      executed: AgentExecution;
      price: number | null;
    }>(
      `SELECT bar_time, executed, (record->>'price')::double precision AS price FROM agent_decisions
       WHERE bot_id = $1 AND bar_time < $2 AND executed IS NOT NULL AND outcome IN ('executed', 'approved')
       ORDER BY bar_time DESC LIMIT 1`,
      [botId, before],
    );
    const r = rows[0];
    if (!r || r.price === null) return undefined;
    return { barTime: Number(r.bar_time), executed: r.executed, price: Number(r.price) };
  },

  /** Updates what became of a bar's decision (an approval decided later, a failure after the record) */
  async setOutcome(
    db: Queryable,
    id: string,
    outcome: AgentDecisionOutcome,
    note: string,
    patch: Partial<AgentDecisionRecord> = {},
  ): Promise<void> {
    await db.query(
      `UPDATE agent_decisions SET outcome = $2, note = $3, record = record || $4::jsonb WHERE id = $1`,
      [id, outcome, note, JSON.stringify(patch)],
    );
  },

  async countDecisions(db: Queryable, botId: string, stage: AgentStage): Promise<number> {
    const rows = await db.query<{ n: string | number }>(
      'SELECT count(*) AS n FROM agent_decisions WHERE bot_id = $1 AND stage = $2',
      [botId, stage],
    );
    return Number(rows[0]?.n ?? 0);
  },

  /** Agent orders sent in the window (the guard's orders-per-minute), from the order intents */
  async ordersSince(db: Queryable, botId: string, since: Date): Promise<number> {
    const rows = await db.query<{ n: string | number }>(
      'SELECT count(*) AS n FROM order_intents WHERE bot_id = $1 AND created_at >= $2',
      [botId, since],
    );
    return Number(rows[0]?.n ?? 0);
  },
};
