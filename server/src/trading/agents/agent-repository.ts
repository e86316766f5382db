import type { AgentLatch, AgentStage, AgentTraining } from '@kestrel/contracts/agents';
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

const STATE_COLUMNS = `bot_id, stage, latch_cause, latch_reason, latched_at, latch_from_stage, training_state,
  training_error, training_started_at, training_finished_at, evidence, evidence_at, evidence_error, updated_at`;

/**
 * Thin SQL for an agent's state (`agent_state`: stage, latch, training, evidence), its models (`agent_models`) and
 * the trial registry (`agent_trials`). Decisions are in `agent-decision-repository.ts`, approvals in
 * `agent-approval-repository.ts`. Reads a user sees are addressed through the bot (owner checked by the service)
 */
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

  /** Whether the agent has been trained at least once (its start needs a model) */
  async hasModel(db: Queryable, botId: string): Promise<boolean> {
    const rows = await db.query('SELECT 1 FROM agent_models WHERE bot_id = $1 LIMIT 1', [botId]);
    return rows.length > 0;
  },

  /** The newest model of the agent, or undefined */
  async latestModel(db: Queryable, botId: string): Promise<AgentModel | undefined> {
    const rows = await db.query<{ model: AgentModel }>(
      'SELECT model FROM agent_models WHERE bot_id = $1 ORDER BY created_at DESC, trained_at DESC LIMIT 1',
      [botId],
    );
    return rows[0]?.model;
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
};
