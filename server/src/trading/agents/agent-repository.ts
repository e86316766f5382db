import type {
  AgentApproval,
  AgentDecisionOutcome,
  AgentDecisionRecord,
  AgentDecisionSummary,
  AgentLatch,
  AgentStage,
  AgentTraining,
} from '@kestrel/contracts/agents';
import type { AgentModel } from '@kestrel/engine';
import type { Queryable } from '../../lib/database/database';

/** An agent_state row as the service uses it */
export interface AgentStateRow {
  bot_id: string;
  stage: AgentStage;
  latch_cause: AgentLatch['cause'] | null;
  latch_reason: string | null;
  latched_at: Date | null;
  latch_from_stage: AgentStage | null;
  training_state: AgentTraining['state'];
  training_error: string | null;
  training_started_at: Date | null;
  training_finished_at: Date | null;
  evidence: Record<string, unknown> | null;
  evidence_at: Date | null;
  evidence_error: string | null;
  updated_at: Date;
}

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

const STATE_COLUMNS = `bot_id, stage, latch_cause, latch_reason, latched_at, latch_from_stage, training_state,
  training_error, training_started_at, training_finished_at, evidence, evidence_at, evidence_error, updated_at`;
const APPROVAL_COLUMNS = `id::text AS id, bot_id, decision_id::text AS decision_id, action, size_fraction, stop_pct,
  state, created_at, expires_at, decided_at, executed_bar::text AS executed_bar, note`;

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

/** Thin SQL for the agent's own tables; reads a user sees are addressed through the bot (owner checked by the service) */
export const agentRepository = {
  /** The agent's state, created (stage paper, not latched, idle) the first time it is asked for */
  async state(db: Queryable, botId: string, now: Date): Promise<AgentStateRow> {
    const rows = await db.query(
      `INSERT INTO agent_state (bot_id, updated_at) VALUES ($1, $2)
       ON CONFLICT (bot_id) DO UPDATE SET bot_id = EXCLUDED.bot_id
       RETURNING ${STATE_COLUMNS}`,
      [botId, now],
    );
    return rows[0] as unknown as AgentStateRow;
  },

  async setStage(db: Queryable, botId: string, stage: AgentStage, now: Date): Promise<void> {
    await db.query('UPDATE agent_state SET stage = $2, updated_at = $3 WHERE bot_id = $1', [
      botId,
      stage,
      now,
    ]);
  },

  /**
   * Latches the agent (stage back to paper). The first latch's cause is kept: a later breach while latched does not
   * overwrite why it stopped
   */
  async latch(
    db: Queryable,
    botId: string,
    latch: { cause: AgentLatch['cause']; reason: string },
    now: Date,
  ): Promise<void> {
    await db.query(
      `UPDATE agent_state SET latch_from_stage = CASE WHEN latch_cause IS NULL THEN stage ELSE latch_from_stage END,
         latch_reason = CASE WHEN latch_cause IS NULL THEN $3 ELSE latch_reason END,
         latched_at = CASE WHEN latch_cause IS NULL THEN $4 ELSE latched_at END,
         latch_cause = coalesce(latch_cause, $2), stage = 'paper', updated_at = $4
       WHERE bot_id = $1`,
      [botId, latch.cause, latch.reason, now],
    );
  },

  /** The bot back to paper mode (after its live orders were canceled and its position closed) */
  async demote(db: Queryable, botId: string, now: Date): Promise<void> {
    await db.query(`UPDATE bots SET mode = 'paper', updated_at = $2 WHERE id = $1 AND mode <> 'paper'`, [
      botId,
      now,
    ]);
  },

  async countDecisions(db: Queryable, botId: string, stage: AgentStage): Promise<number> {
    const rows = await db.query<{ n: string | number }>(
      'SELECT count(*) AS n FROM agent_decisions WHERE bot_id = $1 AND stage = $2',
      [botId, stage],
    );
    return Number(rows[0]?.n ?? 0);
  },

  async countExecutedApprovals(db: Queryable, botId: string): Promise<number> {
    const rows = await db.query<{ n: string | number }>(
      `SELECT count(*) AS n FROM agent_approvals WHERE bot_id = $1 AND state = 'approved' AND executed_bar IS NOT NULL`,
      [botId],
    );
    return Number(rows[0]?.n ?? 0);
  },

  /** Clears the latch; false when it was not latched */
  async resetLatch(db: Queryable, botId: string, now: Date): Promise<boolean> {
    const rows = await db.query(
      `UPDATE agent_state SET latch_cause = NULL, latch_reason = NULL, latched_at = NULL, latch_from_stage = NULL,
         updated_at = $2
       WHERE bot_id = $1 AND latch_cause IS NOT NULL RETURNING bot_id`,
      [botId, now],
    );
    return rows.length > 0;
  },

  /** Marks training started; false when one is already running (the caller answers 409) */
  async beginTraining(db: Queryable, botId: string, now: Date): Promise<boolean> {
    const rows = await db.query(
      `UPDATE agent_state SET training_state = 'training', training_started_at = $2, training_finished_at = NULL,
         updated_at = $2
       WHERE bot_id = $1 AND training_state <> 'training' RETURNING bot_id`,
      [botId, now],
    );
    return rows.length > 0;
  },

  async finishTraining(db: Queryable, botId: string, error: string | null, now: Date): Promise<void> {
    await db.query(
      `UPDATE agent_state SET training_state = $2, training_error = $3, training_finished_at = $4, updated_at = $4
       WHERE bot_id = $1`,
      [botId, error === null ? 'idle' : 'failed', error, now],
    );
  },

  /** A training left `training` by a process that died: failed, so a new one may start */
  async abandonTraining(db: Queryable, botId: string, now: Date): Promise<void> {
    await db.query(
      `UPDATE agent_state SET training_state = 'failed', training_error = $2, training_finished_at = $3,
         updated_at = $3
       WHERE bot_id = $1 AND training_state = 'training'`,
      [botId, 'The server stopped during the training', now],
    );
  },

  /** The last evidence report, or (report null) why none could be computed */
  async saveEvidence(
    db: Queryable,
    botId: string,
    evidence: Record<string, unknown> | null,
    now: Date,
    error: string | null = null,
  ): Promise<void> {
    await db.query(
      `UPDATE agent_state SET evidence = $2, evidence_at = $3, evidence_error = $4, updated_at = $3
       WHERE bot_id = $1`,
      [botId, evidence === null ? null : JSON.stringify(evidence), now, error],
    );
  },

  async saveModel(db: Queryable, botId: string, model: AgentModel, now: Date): Promise<void> {
    await db.query(
      `INSERT INTO agent_models (id, bot_id, trained_at, created_at, model) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (bot_id, id) DO UPDATE SET created_at = EXCLUDED.created_at`,
      [model.id, botId, new Date(model.trainedAt), now, JSON.stringify(model)],
    );
  },

  /** The newest model of the agent, or undefined */
  async latestModel(db: Queryable, botId: string): Promise<AgentModel | undefined> {
    const rows = await db.query<{ model: AgentModel }>(
      'SELECT model FROM agent_models WHERE bot_id = $1 ORDER BY created_at DESC, trained_at DESC LIMIT 1',
      [botId],
    );
    return rows[0]?.model;
  },

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
       RETURNING id, bot_id, bar_time, outcome, note, executed, record`,
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
    const existing = await agentRepository.decisionAt(db, row.botId, record.barTime);
    if (!existing) throw new Error(`The decision of bar ${record.barTime} was neither written nor found`);
    return existing;
  },

  async decisionAt(db: Queryable, botId: string, barTime: number): Promise<StoredDecision | undefined> {
    const rows = await db.query(
      `SELECT id, bot_id, bar_time, outcome, note, executed, record FROM agent_decisions
       WHERE bot_id = $1 AND bar_time = $2`,
      [botId, barTime],
    );
    return rows[0] ? toDecision(rows[0]) : undefined;
  },

  async decision(db: Queryable, botId: string, id: string): Promise<StoredDecision | undefined> {
    const rows = await db.query(
      `SELECT id, bot_id, bar_time, outcome, note, executed, record FROM agent_decisions
       WHERE bot_id = $1 AND id = $2`,
      [botId, id],
    );
    return rows[0] ? toDecision(rows[0]) : undefined;
  },

  /** Newest first, bars opened before `before` */
  async decisions(
    db: Queryable,
    botId: string,
    before: number | undefined,
    limit: number,
  ): Promise<StoredDecision[]> {
    const rows = await db.query(
      `SELECT id, bot_id, bar_time, outcome, note, executed, record FROM agent_decisions
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
    const approved = await db.query<ApprovalRow>(
      `SELECT ${APPROVAL_COLUMNS} FROM agent_approvals
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

  /** Records a configuration trained or evaluated (the trial registry); returns N for the owner's symbol × interval */
  async recordTrial(
    db: Queryable,
    trial: {
      userId: string;
      symbol: string;
      interval: string;
      configHash: string;
      config: Record<string, unknown>;
      botId: string;
      sharpe: number | null;
    },
    now: Date,
  ): Promise<number> {
    await db.query(
      `INSERT INTO agent_trials (user_id, symbol, interval, config_hash, config, bot_id, first_at, last_at, sharpe)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)
       ON CONFLICT (user_id, symbol, interval, config_hash)
       DO UPDATE SET runs = agent_trials.runs + 1, last_at = EXCLUDED.last_at,
         sharpe = coalesce(EXCLUDED.sharpe, agent_trials.sharpe)`,
      [
        trial.userId,
        trial.symbol,
        trial.interval,
        trial.configHash,
        JSON.stringify(trial.config),
        trial.botId,
        now,
        trial.sharpe,
      ],
    );
    return agentRepository.trialCount(db, trial.userId, trial.symbol, trial.interval);
  },

  async trialCount(db: Queryable, userId: string, symbol: string, interval: string): Promise<number> {
    const rows = await db.query<{ n: string | number }>(
      'SELECT count(*) AS n FROM agent_trials WHERE user_id = $1 AND symbol = $2 AND interval = $3',
      [userId, symbol, interval],
    );
    return Number(rows[0]?.n ?? 0);
  },

  /**
   * The out-of-sample Sharpe ratio of every other configuration in the registry, NaN for one evaluated without a
   * figure (the engine counts it in N as Sharpe 0): their number and spread deflate the Sharpe ratio
   */
  async trialSharpes(
    db: Queryable,
    trial: { userId: string; symbol: string; interval: string },
    exceptHash: string,
  ): Promise<number[]> {
    const rows = await db.query<{ sharpe: number | null }>(
      `SELECT sharpe FROM agent_trials WHERE user_id = $1 AND symbol = $2 AND interval = $3 AND config_hash <> $4`,
      [trial.userId, trial.symbol, trial.interval, exceptHash],
    );
    return rows.map((r) => (r.sharpe === null ? Number.NaN : Number(r.sharpe)));
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
