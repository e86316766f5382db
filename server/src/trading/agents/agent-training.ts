import { createHash } from 'node:crypto';
import type { AgentEvidence, AgentTraining } from '@kestrel/contracts/agents';
import {
  type AgentConfig,
  type AgentEvidenceInput,
  type AgentModel,
  type AgentEvidence as EngineEvidence,
  FEATURE_LOOKBACK,
  retrainBars,
  type TrainAgentInput,
} from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { BotRow } from '../bots/bot-repository';
import { type AgentStateRow, agentRepository } from './agent-repository';
import { configOf, finiteOrNull } from './agent-rows';

const HOUR_MS = 3_600_000;
/** Walk-forward folds of one retrain period the evidence asks history for (beyond the training window), at least */
export const EVIDENCE_FOLDS = 8;
/**
 * Bars of out-of-sample history the evidence asks for, at least: 8 daily retrains of a 1h agent are 8 days (192
 * bars), too few for a Sharpe ratio, a PBO or a random-entry test to say anything (the gates would judge noise).
 * In bars, not days: a 1m agent's 8 retrain periods are already 11,520 bars, and more would only cost CPU
 */
export const EVIDENCE_MIN_OOS_BARS = 2_000;
/** Most bars one training or evidence run reads (a year of 5m bars; 1m agents get ~70 days) */
export const EVIDENCE_MAX_BARS = 105_120;

/** The engine's training and evidence, in worker threads (tests may run them in-process) */
export interface AgentTrainer {
  /** `signal` ends the work at once (the server is closing): the promise then rejects */
  train(input: TrainAgentInput, signal: AbortSignal): Promise<AgentModel>;
  evidence(input: AgentEvidenceInput, signal: AbortSignal): Promise<EngineEvidence>;
}

/** The trainings' job queue (`agent-training-job.ts`): leased through the database like backtests */
export interface TrainingJobs {
  /** Queues a training of the agent; false while one is queued or running (or the server is closing) */
  begin(row: BotRow): Promise<boolean>;
  /** Resolves when no training runs in this process (tests) */
  idle(): Promise<void>;
  /** The server closes: trainings running here end now (recorded as failed, with why) */
  close(): Promise<void>;
}

export interface AgentTrainingDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  trainings: TrainingJobs;
  /** The bot's paper (or live) fills against a backtest of the same period (the drift report), when it has run */
  paperDrift(userId: string, id: string): Promise<AgentEvidence['paperDrift']>;
  /** The user's agent (404 for an unknown id, another user's bot or a bot that is not an agent) */
  agent(userId: string, id: string): Promise<BotRow>;
}

/**
 * An agent's training and its walk-forward evidence: `POST …/train` and the runtime's cadence (a session's start,
 * a retrain due at a bar) ask the trainings' job queue, which runs one training per agent across the cluster
 * (`agent-training-job.ts`); `GET …/evidence` reads what the last one stored
 */
export class AgentTrainingService {
  constructor(private readonly deps: AgentTrainingDeps) {}

  /** Starts a training now (202); 409 while one runs */
  async train(userId: string, id: string): Promise<AgentTraining> {
    const row = await this.row(userId, id);
    if (!(await this.deps.trainings.begin(row))) {
      throw new HttpError(409, 'AGENT_TRAINING', 'This agent is already training: wait for it to finish');
    }
    return trainingOf(await agentRepository.state(this.deps.db, id, this.deps.clock.now()));
  }

  /** The runtime's cadence: a training when there is no model, or its retrain is due (never two at once) */
  retrainIfDue(row: BotRow, model: AgentModel | undefined, barClose: number): void {
    const config = configOf(row);
    if (model && barClose - model.trainedAt < config.retrainHours * HOUR_MS) return;
    void this.deps.trainings
      .begin(row)
      .catch((err: unknown) =>
        this.deps.logger.warn({ err, botId: row.id }, 'agent training could not start'),
      );
  }

  /** At a session's start: trains now when the agent has no model, or its retrain is already due */
  async trainIfStale(row: BotRow): Promise<void> {
    const model = await agentRepository.latestModel(this.deps.db, row.id);
    this.retrainIfDue(row, model, this.deps.clock.now().getTime());
  }

  /** Resolves when no training runs in this process (tests) */
  idle(): Promise<void> {
    return this.deps.trainings.idle();
  }

  /** The server closes: running trainings end now (recorded as failed, with why) and no new one starts */
  close(): Promise<void> {
    return this.deps.trainings.close();
  }

  async evidence(userId: string, id: string): Promise<AgentEvidence> {
    const row = await this.row(userId, id);
    const state = await agentRepository.state(this.deps.db, id, this.deps.clock.now());
    const trials = await agentRepository.trialCount(this.deps.db, row.user_id, row.symbol, row.interval);
    const raw = state.evidence as unknown as EngineEvidence | null;
    return {
      report: raw && state.evidence_at ? evidenceReport(raw, state.evidence_at.getTime()) : null,
      reportError: state.evidence_error,
      trials,
      paperDrift: await this.deps.paperDrift(userId, id).catch(() => null),
    };
  }

  private row(userId: string, id: string): Promise<BotRow> {
    return this.deps.agent(userId, id);
  }
}

export const EVIDENCE_GATE_LABELS: Record<string, string> = {
  dsr: 'Deflated Sharpe ratio',
  pbo: 'Probability of backtest overfitting',
  random_entry: 'Beats random entries',
  retention: 'Out-of-sample Sharpe keeps half the in-sample',
};

/**
 * Why the history read cannot hold walk-forward evidence, in words a trader can act on (what was served, what the
 * settings need, what to change), or null when it can: the engine's own check (the first training window, then at
 * least two retrain periods or 64 bars out of sample), said before the worker is asked
 */
export function shortHistory(
  row: Pick<BotRow, 'symbol' | 'interval'>,
  config: AgentConfig,
  bars: number,
  intervalMs: number,
): string | null {
  const outOfSample = Math.max(2 * retrainBars(config, intervalMs), 64);
  const needed = FEATURE_LOOKBACK + config.trainBars + config.horizonBars + outOfSample;
  if (bars >= needed) return null;
  const days = (n: number) => {
    const d = Math.round((n * intervalMs) / (24 * HOUR_MS));
    return `${d} day${d === 1 ? '' : 's'}`;
  };
  const room = bars - (needed - config.trainBars);
  const change =
    room >= 200
      ? `lower Train bars to ${room} or fewer, or pick a shorter interval`
      : 'lower Retrain hours (two retrain periods out of sample at least) and Train bars, or pick a shorter interval';
  return (
    `the exchange has ${bars} closed ${row.symbol} ${row.interval} bars (${days(bars)}); walk-forward ` +
    `evidence needs ${needed} (${days(needed)}): the ${config.trainBars}-bar training window, ` +
    `${FEATURE_LOOKBACK + config.horizonBars} bars for features and labels and ${outOfSample} out of sample. To get ` +
    `evidence, ${change}`
  );
}

export function configHash(config: AgentConfig): string {
  const sorted = Object.fromEntries(Object.entries(config).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 32);
}

export function trainingOf(s: AgentStateRow): AgentTraining {
  return {
    state: s.training_state,
    lastError: s.training_error,
    startedAt: s.training_started_at?.getTime() ?? null,
    finishedAt: s.training_finished_at?.getTime() ?? null,
  };
}

/** The engine's evidence report in the contract's words (the full report kept under `raw`) */
function evidenceReport(e: EngineEvidence, computedAt: number): NonNullable<AgentEvidence['report']> {
  const curve = (values: number[]) =>
    values
      .map((value, i) => ({ time: e.curves.time[i] ?? 0, value }))
      .filter((p) => Number.isFinite(p.value));
  const s = e.statistics;
  return {
    computedAt,
    oosEquity: curve(e.curves.agent),
    buyAndHold: curve(e.curves.buyAndHold),
    randomEntry: curve(e.curves.randomEntry),
    folds: e.folds.map((f) => ({
      fold: f.fold,
      trainFrom: f.trainFrom,
      trainTo: f.trainTo,
      testFrom: f.testFrom,
      testTo: f.testTo,
      trades: f.trades,
      returnPct: f.oosReturn * 100,
      sharpe: null,
      inSampleSharpe: null,
    })),
    cv: {
      folds: e.cv.folds.map((f) => f.accuracy),
      mean: finiteOrNull(e.cv.meanAccuracy),
      embargoPct: e.bars > 0 ? (e.cv.embargoBars / e.bars) * 100 : 0,
    },
    psr: finiteOrNull(s.deflated.psr),
    dsr: finiteOrNull(s.deflated.dsr),
    pbo: finiteOrNull(s.pbo?.pbo),
    inputs: {
      trials: s.deflated.trials,
      sharpeVariance: finiteOrNull(s.deflated.sharpeVariance),
      expectedMaxSharpe: finiteOrNull(s.deflated.expectedMaxSharpe),
      sharpe: finiteOrNull(s.sharpe),
      inSampleSharpe: finiteOrNull(s.inSampleSharpe),
      retention: finiteOrNull(s.retention),
      skewness: finiteOrNull(s.skewness),
      kurtosis: finiteOrNull(s.kurtosis),
      periods: s.periods,
      periodBars: s.periodBars,
      randomEntryPValue: finiteOrNull(s.randomEntry.pValue),
    },
    costs: { ...e.oos.costs },
    gates: e.gates.map((g) => ({
      id: g.gate,
      label: `${EVIDENCE_GATE_LABELS[g.gate] ?? g.gate} (${g.inputs})`,
      passed: g.passed,
      value: finiteOrNull(g.value),
      limit: g.limit,
    })),
    passed: e.passed,
    raw: JSON.parse(JSON.stringify(e)) as Record<string, unknown>,
  };
}
