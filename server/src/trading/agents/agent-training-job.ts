import { randomUUID } from 'node:crypto';
import type { KlineInterval, TradingEnvironment } from '@kestrel/contracts';
import { FEATURE_LOOKBACK, intervalToMs, retrainBars } from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { Database, Queryable } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import { type BotRow, botRepository } from '../bots/bot-repository';
import type { JobKind, RunningJob } from '../jobs/job-kind';
import { type JobStatus, jobQueueSql, ownedJobReads } from '../jobs/job-queue-sql';
import { JobService } from '../jobs/job-service';
import { agentRepository } from './agent-repository';
import { configOf } from './agent-rows';
import type { AgentSnapshots } from './agent-snapshot';
import {
  type AgentTrainer,
  configHash,
  EVIDENCE_FOLDS,
  EVIDENCE_MAX_BARS,
  EVIDENCE_MIN_OOS_BARS,
  shortHistory,
} from './agent-training';

/** Why a training ended without a result when its server stopped (closing, or killed and its lease ran out) */
export const SERVER_STOPPED = 'the server stopped during the training';
/**
 * Trainings at once per instance: each is one engine worker thread for a few seconds; a few at once keep a fleet
 * of agents starting together from waiting on each other, a bound keeps them from taking every core
 */
const TRAINING_CONCURRENCY = 4;

/** An agent_trainings row: the queue behind agent_state's `training` */
export interface AgentTrainingRow {
  id: string;
  user_id: string;
  bot_id: string;
  status: JobStatus;
  progress: number;
  error: string | null;
  created_at: Date;
  lease_owner: string | null;
  attempts: number;
}

const COLUMNS = 'id, user_id, bot_id, status, progress, error, created_at, lease_owner, attempts';
const toRow = (r: Record<string, unknown>): AgentTrainingRow =>
  ({ ...r, progress: Number(r.progress), attempts: Number(r.attempts) }) as AgentTrainingRow;

/** Thin SQL of the trainings table: the shared queue plus what a training writes of its own */
export const agentTrainingRepository = {
  ...jobQueueSql<AgentTrainingRow>('agent_trainings', COLUMNS, toRow),

  async insert(db: Queryable, row: { id: string; userId: string; botId: string; now: Date }) {
    const rows = await db.query(
      `INSERT INTO agent_trainings (id, user_id, bot_id, status, created_at) VALUES ($1, $2, $3, 'queued', $4)
       RETURNING ${COLUMNS}`,
      [row.id, row.userId, row.botId, row.now],
    );
    return toRow(rows[0] as Record<string, unknown>);
  },

  find: ownedJobReads<AgentTrainingRow>('agent_trainings', COLUMNS, toRow).find,

  /** running → completed by the instance running it; false when it no longer holds the job */
  async complete(db: Queryable, id: string, owner: string, now: Date): Promise<boolean> {
    const rows = await db.query(
      `UPDATE agent_trainings SET status = 'completed', progress = 1, finished_at = $3, lease_expires_at = NULL
        WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id`,
      [id, owner, now],
    );
    return rows.length > 0;
  },

  /**
   * Agents whose state says `training` with no training job queued or running: left so by a server from before
   * the jobs table (or one that died between the two writes). At start they are marked failed, so one may start
   */
  async orphaned(db: Queryable): Promise<string[]> {
    const rows = await db.query<{ bot_id: string }>(
      `SELECT s.bot_id FROM agent_state s
        WHERE s.training_state = 'training'
          AND NOT EXISTS (SELECT 1 FROM agent_trainings j
                           WHERE j.bot_id = s.bot_id AND j.status IN ('queued', 'running'))`,
    );
    return rows.map((r) => r.bot_id);
  },
};

export interface AgentTrainingsDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  trainer: AgentTrainer;
  /** Point-in-time snapshots of an environment's exchange (the market the agent trades in) */
  snapshots(environment: TradingEnvironment): Pick<AgentSnapshots, 'load'>;
  /** NOTIFY channel of the trainings queue */
  channel: string;
}

/**
 * Agent training as a job kind: the agent service asks for a training (`begin`), the shared runner leases it on
 * some instance, and its work trains on the last `trainBars` closed bars, stores the model, records the trial and
 * computes the walk-forward evidence. agent_state keeps what the page shows (`training`, `idle`, `failed` with the
 * reason). A training is not handed to another instance when its server stops: it fails saying so (a retrain
 * comes with the next bar), and a training whose instance was killed fails when its lease runs out
 */
export class AgentTrainings {
  readonly jobs: JobService<AgentTrainingRow>;

  constructor(private readonly deps: AgentTrainingsDeps) {
    this.jobs = new JobService({
      db: deps.db,
      clock: deps.clock,
      log: deps.log,
      kind: this.kind(),
      // The agent's status carries the training state: no notice of its own
      publish: async () => {},
      channel: deps.channel,
      concurrency: TRAINING_CONCURRENCY,
      maxAttempts: 1,
      interruptedError: SERVER_STOPPED,
      handBackOnClose: false,
    });
  }

  /** Queues a training of the agent; false when one is already queued or running (the caller answers 409) */
  async begin(row: BotRow): Promise<boolean> {
    if (this.jobs.runner.stopping) return false;
    const { db, clock } = this.deps;
    const now = clock.now();
    await agentRepository.state(db, row.id, now);
    if (!(await agentRepository.beginTraining(db, row.id, now))) return false;
    try {
      await this.jobs.create(row.user_id, (tx) =>
        agentTrainingRepository.insert(tx, { id: randomUUID(), userId: row.user_id, botId: row.id, now }),
      );
    } catch (err) {
      await agentRepository.finishTraining(
        db,
        row.id,
        'Training failed: it could not be queued',
        clock.now(),
      );
      throw err;
    }
    return true;
  }

  /** Marks failed the agents left `training` without a job, then starts taking trainings */
  async start(): Promise<void> {
    for (const id of await agentTrainingRepository.orphaned(this.deps.db)) {
      await agentRepository.abandonTraining(this.deps.db, id, this.deps.clock.now());
    }
    await this.jobs.start();
  }

  /** Resolves when no training runs on this instance (tests) */
  async idle(): Promise<void> {
    await this.jobs.idle();
  }

  /** The server closes: running trainings end now (recorded as failed, with why) and no new one starts */
  async close(): Promise<void> {
    await this.jobs.close();
  }

  private kind(): JobKind<AgentTrainingRow> {
    return {
      label: 'agent training',
      code: 'AGENT_TRAINING',
      queue: agentTrainingRepository,
      find: agentTrainingRepository.find,
      notFound: () => new HttpError(404, 'AGENT_NOT_FOUND', 'No such agent'),
      notice: () => undefined,
      execute: (row, job) => this.execute(row, job),
      takenBack: async (row, status, error) => {
        if (status === 'failed') {
          await agentRepository.finishTraining(
            this.deps.db,
            row.bot_id,
            `Training failed: ${error ?? SERVER_STOPPED}`,
            this.deps.clock.now(),
          );
        }
      },
    };
  }

  /**
   * A failure is recorded and shown (training `failed`, with the reason); the runtime then has no fresh model and
   * makes no entries
   */
  private async execute(job: AgentTrainingRow, running: RunningJob<AgentTrainingRow>): Promise<void> {
    const { db, clock } = this.deps;
    let error: string | null = null;
    try {
      const row = await botRepository.find(db, job.user_id, job.bot_id);
      if (!row) throw new Error('the agent was deleted');
      await this.train(row, running.signal);
    } catch (err) {
      const reason = running.stopping
        ? SERVER_STOPPED
        : err instanceof Error && err.message
          ? err.message
          : 'no reason given';
      error = `Training failed: ${reason}`;
    }
    const now = clock.now();
    const held =
      error === null
        ? await agentTrainingRepository.complete(db, job.id, running.owner, now)
        : (await running.fail(error)) !== undefined;
    // The agent's state follows the job this instance still held (a job taken back was settled by the taker)
    if (held) await agentRepository.finishTraining(db, job.bot_id, error, now);
  }

  /**
   * Trains on the last `trainBars` closed bars (labels that end by the last bar only), stores the model, records
   * the configuration in the trial registry and computes the walk-forward evidence
   */
  private async train(row: BotRow, signal: AbortSignal): Promise<void> {
    const { db, clock } = this.deps;
    const config = configOf(row);
    const intervalMs = intervalToMs(row.interval as KlineInterval);
    const now = clock.now().getTime();
    // The bar that closed last; history for the features' lookback, the labels' horizon, the training window and
    // (for the evidence) walk-forward folds of one retrain period each before it
    const end = Math.floor(now / intervalMs) * intervalMs;
    const window = config.trainBars + FEATURE_LOOKBACK + config.horizonBars;
    const outOfSample = Math.max(EVIDENCE_FOLDS * retrainBars(config, intervalMs), EVIDENCE_MIN_OOS_BARS);
    const bars = Math.min(EVIDENCE_MAX_BARS, window + outOfSample);
    const snapshot = await this.deps.snapshots(row.environment).load(row.symbol, row.interval, intervalMs, {
      start: end - bars * intervalMs,
      end,
    });
    if (snapshot.length < FEATURE_LOOKBACK + config.horizonBars * 4) {
      throw new Error(`only ${snapshot.length} closed bars of ${row.symbol} ${row.interval} could be read`);
    }
    const model = await this.deps.trainer.train(
      {
        snapshot,
        config,
        from: Math.max(0, snapshot.length - config.trainBars - config.horizonBars),
        to: snapshot.length,
        trainedAt: end,
      },
      signal,
    );
    await agentRepository.saveModel(db, row.id, model, clock.now());
    const trialKey = { userId: row.user_id, symbol: row.symbol, interval: row.interval };
    // Every other configuration tried on this market before (a retrain of the same one is not another trial)
    const sharpes = await agentRepository.trialSharpes(db, trialKey, configHash(config));
    let sharpe: number | null = null;
    try {
      const short = shortHistory(row, config, snapshot.length, intervalMs);
      if (short) throw new Error(short);
      const evidence = await this.deps.trainer.evidence({ snapshot, config, trials: sharpes }, signal);
      sharpe = Number.isFinite(evidence.statistics.sharpe) ? evidence.statistics.sharpe : null;
      await agentRepository.saveEvidence(
        db,
        row.id,
        evidence as unknown as Record<string, unknown>,
        clock.now(),
      );
    } catch (err) {
      // Too little history for walk-forward folds: the model still trades on paper; promotion waits for evidence
      if (signal.aborted) throw err;
      const evidenceError = err instanceof Error && err.message ? err.message : 'no reason given';
      await agentRepository.saveEvidence(
        db,
        row.id,
        null,
        clock.now(),
        `Evidence not computed: ${evidenceError}`,
      );
    }
    await agentRepository.recordTrial(
      db,
      { ...trialKey, configHash: configHash(config), config: { ...config }, botId: row.id, sharpe },
      clock.now(),
    );
  }
}
