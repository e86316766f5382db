import { createHash } from 'node:crypto';
import type { CreateOrderRequest, KlineInterval, TradingEnvironment } from '@kestrel/contracts';
import type {
  AgentApproval,
  AgentDecisionRecord,
  AgentDecisionSummary,
  AgentEvidence,
  AgentHealth,
  AgentLatch,
  AgentModelInfo,
  AgentPromotionGate,
  AgentRiskLine,
  AgentStage,
  AgentStatus,
  AgentTraining,
} from '@kestrel/contracts/agents';
import {
  type AgentConfig,
  type AgentDecision,
  type AgentEvidenceInput,
  type AgentModel,
  type AgentEvidence as EngineEvidence,
  FEATURE_LOOKBACK,
  intervalToMs,
  modelHealth,
  parseAgentConfig,
  retrainBars,
  type TrainAgentInput,
} from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import type { BotLog } from '../bots/bot-log';
import { type BotRow, botKindOf, botRepository } from '../bots/bot-repository';
import type { BotRunner } from '../bots/bot-runner';
import { type BotService, STOPPED_BY_KILL_SWITCH } from '../bots/bot-service';
import { drawdownPercentOf, type PaperFigures } from '../bots/paper-account';
import type { StoredIntent } from '../orders/order-intent-repository';
import { type AgentStateRow, type ApprovalRow, agentRepository, summaryOf } from './agent-repository';
import type { AgentSnapshots } from './agent-snapshot';

export const KILLED_BY_YOU = 'Killed by you';
/** Decisions an agent must have recorded on paper before it may go live (a track record to compare) */
export const PAPER_DECISIONS_FOR_LIVE = 24;
/** Proposals the owner must have approved and seen carried out before the agent may trade by itself */
export const APPROVALS_FOR_AUTO = 3;

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

export interface AgentServiceDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  bots: BotService;
  runner: BotRunner;
  log: BotLog;
  trainer: AgentTrainer;
  /**
   * Point-in-time snapshots (closed bars and the aux columns the exchange serves) of an environment's exchange,
   * shared with the runtime: an agent learns from the market it trades in, not its owner's current one
   */
  snapshots(environment: TradingEnvironment): Pick<AgentSnapshots, 'load'>;
  /** The bot's paper (or live) fills against a backtest of the same period (the drift report), when it has run */
  paperDrift(userId: string, id: string): Promise<AgentEvidence['paperDrift']>;
  /** Places a bot's order through the order manager (the one order path), in the bot's environment */
  placeOrder(input: {
    userId: string;
    botId: string;
    intentKey: string;
    order: CreateOrderRequest;
    environment: TradingEnvironment;
  }): Promise<StoredIntent>;
}

/** What makes a bot an agent: its strategy (its kind follows it; the strategy is what the runtime runs) */
export const isAgent = (row: Pick<BotRow, 'strategy'>) => botKindOf(row.strategy) === 'agent';
const notFound = () => new HttpError(404, 'AGENT_NOT_FOUND', 'No such agent');

/**
 * The agents of the signed-in user (issue 18): status, decision records, training, evidence, model health, stages
 * with their gates, the kill and its latch, the approval queue. An agent is a bot of kind `agent`: another user's,
 * an unknown id and a bot that is not an agent are the same 404.
 */
export class AgentService {
  /** Trainings running in this process, by agent */
  private readonly training = new Map<string, Promise<void>>();
  /** Ends the trainings of this process when it closes (their workers terminated) */
  private readonly closing = new AbortController();

  constructor(private readonly deps: AgentServiceDeps) {}

  async status(userId: string, id: string): Promise<AgentStatus> {
    const row = await this.row(userId, id);
    const now = this.deps.clock.now();
    const state = await agentRepository.state(this.deps.db, id, now);
    const model = await agentRepository.latestModel(this.deps.db, id);
    const last = (await agentRepository.decisions(this.deps.db, id, undefined, 1))[0];
    const bot = await this.deps.bots.status(userId, id);
    const config = configOf(row);
    const latch = latchOf(state);
    const gates = await this.gates(row, state, nextStage(state.stage));
    return {
      bot: bot.bot,
      stage: state.stage,
      latch,
      model: model ? modelInfo(model, config, now.getTime(), row.state === 'running') : null,
      training: trainingOf(state),
      lastDecision: last ? summaryOf(last.record) : null,
      positionQty: bot.positionQty,
      risk: riskLines(row, bot, await this.figures(row)),
      promotion: gates
        ? { to: gates.to, allowed: gates.gates.every((g) => g.passed), gates: gates.gates }
        : null,
      pendingApprovals: await agentRepository.countPending(this.deps.db, id),
    };
  }

  async decisions(userId: string, id: string, before: number | undefined, limit: number) {
    await this.row(userId, id);
    return (await agentRepository.decisions(this.deps.db, id, before, limit)).map((d) =>
      summaryOf(d.record),
    ) satisfies AgentDecisionSummary[];
  }

  async decision(userId: string, id: string, decisionId: string): Promise<AgentDecisionRecord> {
    await this.row(userId, id);
    const d = await agentRepository.decision(this.deps.db, id, decisionId);
    if (!d) throw new HttpError(404, 'DECISION_NOT_FOUND', 'No such decision of this agent');
    return d.record;
  }

  /** Starts a training now (202); 409 while one runs */
  async train(userId: string, id: string): Promise<AgentTraining> {
    const row = await this.row(userId, id);
    if (!(await this.beginTraining(row))) {
      throw new HttpError(409, 'AGENT_TRAINING', 'This agent is already training: wait for it to finish');
    }
    return trainingOf(await agentRepository.state(this.deps.db, id, this.deps.clock.now()));
  }

  /** The runtime's cadence: a training when there is no model, or its retrain is due (never two at once) */
  retrainIfDue(row: BotRow, model: AgentModel | undefined, barClose: number): void {
    if (this.training.has(row.id)) return;
    const config = configOf(row);
    if (model && barClose - model.trainedAt < config.retrainHours * HOUR_MS) return;
    void this.beginTraining(row).catch((err: unknown) =>
      this.deps.logger.warn({ err, botId: row.id }, 'agent training could not start'),
    );
  }

  /** At a session's start: trains now when the agent has no model, or its retrain is already due */
  async trainIfStale(row: BotRow): Promise<void> {
    const model = await agentRepository.latestModel(this.deps.db, row.id);
    this.retrainIfDue(row, model, this.deps.clock.now().getTime());
  }

  /** Resolves when no training runs in this process (tests) */
  async idle(): Promise<void> {
    while (this.training.size > 0) await Promise.allSettled([...this.training.values()]);
  }

  /** The server closes: running trainings end now (recorded as failed, with why) and no new one starts */
  async close(): Promise<void> {
    this.closing.abort();
    await this.idle();
  }

  private async beginTraining(row: BotRow): Promise<boolean> {
    if (this.training.has(row.id) || this.closing.signal.aborted) return false;
    const now = this.deps.clock.now();
    await agentRepository.state(this.deps.db, row.id, now);
    if (!(await agentRepository.beginTraining(this.deps.db, row.id, now))) return false;
    const work = this.runTraining(row).finally(() => this.training.delete(row.id));
    this.training.set(row.id, work);
    return true;
  }

  /**
   * Trains on the last `trainBars` closed bars (labels that end by the last bar only), stores the model, records
   * the configuration in the trial registry and computes the walk-forward evidence. A failure is recorded and
   * shown (training `failed`, with the reason); the runtime then has no fresh model and makes no entries
   */
  private async runTraining(row: BotRow): Promise<void> {
    const { db, clock } = this.deps;
    try {
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
      const signal = this.closing.signal;
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
      let evidenceError: string | null = null;
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
        evidenceError = err instanceof Error && err.message ? err.message : 'no reason given';
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
      await agentRepository.finishTraining(db, row.id, null, clock.now());
    } catch (err) {
      const reason = this.closing.signal.aborted
        ? 'the server stopped during the training'
        : err instanceof Error && err.message
          ? err.message
          : 'no reason given';
      await agentRepository.finishTraining(db, row.id, `Training failed: ${reason}`, clock.now());
    }
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

  async health(userId: string, id: string): Promise<AgentHealth> {
    const row = await this.row(userId, id);
    const now = this.deps.clock.now();
    const model = await agentRepository.latestModel(this.deps.db, id);
    if (!model) {
      return {
        modelId: null,
        computedAt: now.getTime(),
        featureDrift: [],
        calibration: [],
        hitRate: { window: 0, value: null, count: 0 },
        diHistogram: [],
        raw: {},
      };
    }
    const config = configOf(row);
    const intervalMs = intervalToMs(row.interval as KlineInterval);
    const end = Math.floor(now.getTime() / intervalMs) * intervalMs;
    const recent = await agentRepository.decisions(this.deps.db, id, undefined, 500);
    const start = Math.min(
      end - 500 * intervalMs,
      (recent.at(-1)?.barTime ?? end) - FEATURE_LOOKBACK * intervalMs,
    );
    const h = modelHealth({
      model,
      snapshot: await this.deps
        .snapshots(row.environment)
        .load(row.symbol, row.interval, intervalMs, { start, end }),
      decisions: recent
        .filter((d) => d.record.modelId === model.id)
        .map((d) => engineDecision(d.record.decision))
        .reverse(),
      config,
    });
    const edges = h.dissimilarity.edges;
    return {
      modelId: model.id,
      computedAt: now.getTime(),
      featureDrift: h.drift.map((f) => ({
        id: f.id,
        psi: finiteOrNull(f.psi),
        zMean: finiteOrNull(f.meanShift),
        drifted: f.status === 'drift',
      })),
      calibration: h.calibration.map((b) => ({
        from: b.from,
        to: b.to,
        predicted: b.meanPredicted ?? (b.from + b.to) / 2,
        observed: b.observed ?? 0,
        count: b.count,
      })),
      hitRate: { window: h.entries, value: h.hitRate, count: h.entries },
      diHistogram: h.dissimilarity.counts.map((count, i) => ({
        from: edges[i] ?? 0,
        to: edges[i + 1] ?? edges[i] ?? 0,
        count,
      })),
      raw: JSON.parse(JSON.stringify(h)) as Record<string, unknown>,
    };
  }

  /**
   * The kill: latched first (fail-closed: no entry passes the guard from here on), then the bot stopped (its
   * orders canceled), its position closed reduce-only, the agent demoted to paper. The latch is kept in the
   * database until a person resets it: the agent does not start, here or after a restart
   */
  async kill(userId: string, id: string): Promise<AgentStatus> {
    const row = await this.row(userId, id);
    await this.latchAndWindDown(row, 'kill', KILLED_BY_YOU, { stop: true });
    return this.status(userId, id);
  }

  /**
   * A limit was breached while the agent traded: latched, the position closed reduce-only and demoted (the
   * session stops it right after, canceling its orders)
   */
  async breach(row: BotRow, reason: string, positionQty: number): Promise<void> {
    await this.latchAndWindDown(row, 'risk_breach', reason, { stop: false, positionQty });
  }

  private async latchAndWindDown(
    row: BotRow,
    cause: AgentLatch['cause'],
    reason: string,
    how: { stop: boolean; positionQty?: number },
  ): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock.now();
    await agentRepository.state(db, row.id, now);
    await agentRepository.latch(db, row.id, { cause, reason }, now);
    await agentRepository.dropPending(db, row.id, `Dropped: ${reason}`, now);
    const figures = this.deps.runner.figures(row.id);
    const stored = figures ? undefined : (await botRepository.statusOf(db, [row])).get(row.id)?.figures;
    const positionQty =
      how.positionQty ??
      figures?.positionQty ??
      Number((stored as Partial<PaperFigures> | undefined)?.positionQty ?? 0);
    if (how.stop) await this.deps.runner.stopBot(row, 'stopped', `${reason}: the agent is latched`);
    if (row.mode === 'live' && positionQty !== 0) {
      const intent = await this.deps.placeOrder({
        userId: row.user_id,
        botId: row.id,
        // One close per latch: a second kill asks for the same intent, never a second order
        intentKey: `latch:${(await agentRepository.state(db, row.id, now)).latched_at?.getTime() ?? now.getTime()}`,
        environment: row.environment,
        order: {
          symbol: row.symbol,
          side: positionQty > 0 ? 'SELL' : 'BUY',
          type: 'MARKET',
          quantity: String(Math.abs(positionQty)),
          reduceOnly: true,
        } as CreateOrderRequest,
      });
      await this.deps.log.record(
        row,
        intent.state === 'rejected' || intent.state === 'not_placed' ? 'order_refused' : 'order_sent',
        `Closing the position reduce-only after the latch: ${positionQty > 0 ? 'SELL' : 'BUY'} ${Math.abs(positionQty)} (${intent.state})`,
        { clientOrderId: intent.clientOrderId, state: intent.state, reduceOnly: true },
      );
    }
    await agentRepository.demote(db, row.id, now);
    await this.deps.log.record(
      row,
      'risk_stop',
      `Latched: ${reason}. Demoted to paper until a person resets it`,
      {
        latch: cause,
        positionQty,
      },
    );
  }

  /**
   * The account's kill switch (/risk), on 'bots.halting': every agent among the bots about to stop is latched
   * (stage paper, pending approvals dropped) before any of them stops, so none trades live meanwhile
   */
  async latchForKillSwitch(bots: readonly BotRow[]): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock.now();
    for (const row of bots.filter(isAgent)) {
      await agentRepository.state(db, row.id, now);
      await agentRepository.latch(db, row.id, { cause: 'kill', reason: STOPPED_BY_KILL_SWITCH }, now);
      await agentRepository.dropPending(db, row.id, `Dropped: ${STOPPED_BY_KILL_SWITCH}`, now);
    }
  }

  /** On 'bots.halted': the agents latched by the kill switch, now stopped, are demoted to paper */
  async demoteAfterKillSwitch(bots: readonly BotRow[]): Promise<void> {
    for (const row of bots.filter(isAgent)) {
      await agentRepository.demote(this.deps.db, row.id, this.deps.clock.now());
      await this.deps.log.record(
        row,
        'risk_stop',
        `Latched: ${STOPPED_BY_KILL_SWITCH}. Demoted to paper until a person resets it`,
        {
          latch: 'kill',
        },
      );
    }
  }

  async resetLatch(userId: string, id: string): Promise<AgentStatus> {
    const row = await this.row(userId, id);
    const now = this.deps.clock.now();
    await agentRepository.state(this.deps.db, id, now);
    if (!(await agentRepository.resetLatch(this.deps.db, id, now))) {
      throw new HttpError(409, 'AGENT_NOT_LATCHED', 'This agent is not latched');
    }
    await this.deps.log.record(row, 'updated', 'Latch reset by you: the agent may start again (on paper)');
    return this.status(userId, id);
  }

  /** Refuses to start a latched agent (the bots' start asks this) */
  async assertMayStart(row: BotRow): Promise<void> {
    if (!isAgent(row)) return;
    const state = await agentRepository.state(this.deps.db, row.id, this.deps.clock.now());
    if (state.latch_cause !== null) {
      throw new HttpError(
        409,
        'AGENT_LATCHED',
        `This agent is latched (${state.latch_reason ?? state.latch_cause}): reset the latch before starting it`,
      );
    }
  }

  /** Moves the agent to `stage`: a demotion always, a promotion only when its gates pass (409 naming the failing ones) */
  async setStage(userId: string, id: string, stage: AgentStage) {
    const row = await this.row(userId, id);
    const now = this.deps.clock.now();
    const state = await agentRepository.state(this.deps.db, id, now);
    const from = STAGE_ORDER.indexOf(state.stage);
    const to = STAGE_ORDER.indexOf(stage);
    let gates: AgentPromotionGate[] = [];
    if (to > from) {
      for (let s = from + 1; s <= to; s++) {
        const step = await this.gates(row, state, STAGE_ORDER[s] as AgentStage);
        gates = [...gates, ...(step?.gates ?? [])];
      }
      const failing = gates.filter((g) => !g.passed);
      if (failing.length > 0) {
        throw new HttpError(
          409,
          'AGENT_GATES_FAILED',
          `Not promoted to ${stage}: ${failing.map((g) => g.label).join('; ')}`,
        );
      }
    }
    await agentRepository.setStage(this.deps.db, id, stage, now);
    if (stage !== 'live_approval') {
      await agentRepository.dropPending(this.deps.db, id, `Dropped: the agent moved to stage ${stage}`, now);
    }
    await this.deps.log.record(row, 'updated', `Stage ${state.stage} → ${stage}`, {
      from: state.stage,
      to: stage,
    });
    return { stage, gates };
  }

  async approvals(userId: string, id: string): Promise<AgentApproval[]> {
    await this.row(userId, id);
    const now = this.deps.clock.now();
    await this.expire(id, now);
    return (await agentRepository.approvals(this.deps.db, id)).map(toApproval);
  }

  /**
   * The owner's click on a pending proposal. Approved: carried out at the next bar close, through the risk guard
   * again (a proposal the guard now refuses is recorded as failed, with why). 409 when it is no longer pending
   */
  async decide(
    userId: string,
    id: string,
    approvalId: string,
    verdict: 'approve' | 'reject',
  ): Promise<AgentApproval> {
    const row = await this.row(userId, id);
    const now = this.deps.clock.now();
    await this.expire(id, now);
    const existing = await agentRepository.approval(this.deps.db, id, approvalId);
    if (!existing) throw new HttpError(404, 'APPROVAL_NOT_FOUND', 'No such proposal of this agent');
    const note =
      verdict === 'approve'
        ? 'Approved by you: carried out at the next bar close, through the risk guard'
        : 'Rejected by you';
    const decided = await agentRepository.decideApproval(
      this.deps.db,
      id,
      approvalId,
      verdict === 'approve' ? 'approved' : 'rejected',
      note,
      now,
    );
    if (!decided) {
      throw new HttpError(409, 'APPROVAL_DECIDED', `This proposal is already ${existing.state}`);
    }
    await agentRepository.setOutcome(
      this.deps.db,
      decided.decision_id,
      verdict === 'approve' ? 'approved' : 'rejected',
      note,
    );
    await this.deps.log.record(row, 'signal', `${note} (${decided.action})`, { approvalId, verdict });
    return toApproval(decided);
  }

  private async expire(id: string, now: Date): Promise<void> {
    for (const a of await agentRepository.expireApprovals(this.deps.db, id, now)) {
      await agentRepository.setOutcome(
        this.deps.db,
        a.decision_id,
        'expired',
        'The proposal expired unanswered',
      );
    }
  }

  /** The gates of the promotion to `to` (null: there is none above live_auto) */
  private async gates(
    row: BotRow,
    state: AgentStateRow,
    to: AgentStage | null,
  ): Promise<{ to: AgentStage; gates: AgentPromotionGate[] } | null> {
    if (!to) return null;
    const { db } = this.deps;
    const gates: AgentPromotionGate[] = [];
    const gate = (
      id: string,
      label: string,
      passed: boolean,
      value: number | null = null,
      limit: number | null = null,
    ) => gates.push({ id, label, passed, value, limit });
    gate('not_latched', 'Not latched (reset the latch first)', state.latch_cause === null);
    const model = await agentRepository.latestModel(db, row.id);
    gate('model', 'A trained model', model !== undefined);
    if (to === 'paper') return { to, gates };
    const evidence = state.evidence as unknown as EngineEvidence | null;
    gate('evidence', 'Walk-forward evidence computed', evidence !== null);
    for (const g of evidence?.gates ?? []) {
      gate(
        `evidence_${g.gate}`,
        `${EVIDENCE_GATE_LABELS[g.gate] ?? g.gate} (${g.inputs})`,
        g.passed,
        finiteOrNull(g.value),
        g.limit,
      );
    }
    const paper = await agentRepository.countDecisions(db, row.id, 'paper');
    gate(
      'paper_record',
      `At least ${PAPER_DECISIONS_FOR_LIVE} decisions recorded on paper`,
      paper >= PAPER_DECISIONS_FOR_LIVE,
      paper,
      PAPER_DECISIONS_FOR_LIVE,
    );
    gate('live_mode', 'The bot is set to live mode (stop it and change its mode first)', row.mode === 'live');
    if (to === 'live_approval') return { to, gates };
    const approved = await agentRepository.countExecutedApprovals(db, row.id);
    gate(
      'approvals',
      `At least ${APPROVALS_FOR_AUTO} proposals approved and carried out`,
      approved >= APPROVALS_FOR_AUTO,
      approved,
      APPROVALS_FOR_AUTO,
    );
    return { to, gates };
  }

  /** The open session's figures: this instance's own, else the ones the instance running it last wrote */
  private async figures(row: BotRow): Promise<PaperFigures | undefined> {
    const mine = this.deps.runner.figures(row.id);
    if (mine || row.state !== 'running') return mine;
    const stored = (await botRepository.statusOf(this.deps.db, [row])).get(row.id)?.figures;
    return stored as unknown as PaperFigures | undefined;
  }

  private async row(userId: string, id: string): Promise<BotRow> {
    const row = await botRepository.find(this.deps.db, userId, id);
    if (!row || !isAgent(row)) throw notFound();
    return row;
  }
}

const STAGE_ORDER: readonly AgentStage[] = ['backtest', 'paper', 'live_approval', 'live_auto'];
const nextStage = (s: AgentStage): AgentStage | null => STAGE_ORDER[STAGE_ORDER.indexOf(s) + 1] ?? null;

const EVIDENCE_GATE_LABELS: Record<string, string> = {
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

export function configOf(row: BotRow): AgentConfig {
  return parseAgentConfig(row.params);
}

export function configHash(config: AgentConfig): string {
  const sorted = Object.fromEntries(Object.entries(config).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 32);
}

/** A stored decision as the engine reads it: the figures JSON kept as null are NaN again */
function engineDecision(d: AgentDecisionRecord['decision']): AgentDecision {
  const nan = (v: number | null) => (v === null ? Number.NaN : v);
  return {
    ...d,
    action: d.action,
    reasonCodes: d.reasonCodes as AgentDecision['reasonCodes'],
    pUp: d.pUp,
    pDown: d.pDown,
    expectedEdge: d.expectedEdge,
    dissimilarity: d.dissimilarity,
    predictionZ: d.predictionZ,
    contributions: d.contributions.map((c) => ({ ...c, value: nan(c.value), scaled: nan(c.scaled) })),
    gates: d.gates.map((g) => ({
      gate: g.gate as AgentDecision['gates'][number]['gate'],
      passed: g.passed,
      value: nan(g.value),
      limit: nan(g.limit),
    })),
  };
}

const finiteOrNull = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v) ? null : v;

function latchOf(s: AgentStateRow): AgentLatch | null {
  if (s.latch_cause === null) return null;
  return {
    cause: s.latch_cause,
    reason: s.latch_reason ?? '',
    latchedAt: s.latched_at?.getTime() ?? 0,
    fromStage: s.latch_from_stage ?? 'paper',
  };
}

function trainingOf(s: AgentStateRow): AgentTraining {
  return {
    state: s.training_state,
    lastError: s.training_error,
    startedAt: s.training_started_at?.getTime() ?? null,
    finishedAt: s.training_finished_at?.getTime() ?? null,
  };
}

function modelInfo(model: AgentModel, config: AgentConfig, now: number, running: boolean): AgentModelInfo {
  const ageHours = Math.max(0, (now - model.trainedAt) / HOUR_MS);
  return {
    id: model.id,
    trainedAt: model.trainedAt,
    trainedFrom: model.trainedFrom,
    trainedTo: model.trainedTo,
    ageHours,
    expiryHours: config.expiryHours,
    stale: ageHours >= config.expiryHours,
    nextRetrainAt: running ? model.trainedAt + config.retrainHours * HOUR_MS : null,
    rows: model.rows,
    featureIds: [...model.featureIds],
    inSample: { ...model.inSample },
  };
}

function riskLines(
  row: BotRow,
  bot: { positionQty: number; markPrice: number | null; todayPnl: number },
  figures: PaperFigures | undefined,
): AgentRiskLine[] {
  const line = (name: AgentRiskLine['name'], current: number, limit: number | null): AgentRiskLine => ({
    name,
    limit,
    current,
    usedPercent: limit ? (current / limit) * 100 : null,
    breached: limit !== null && current >= limit,
  });
  const notional = Math.abs(bot.positionQty) * (bot.markPrice ?? 0);
  // From the session's equity peak, as the bot's own drawdown limit measures it (not from the budget: an agent up
  // 20 % that gives back 15 points is 12.5 % down, not 5 % up)
  const equity = figures?.equity ?? row.budget;
  const drawdown = drawdownPercentOf(figures?.peakEquity ?? Math.max(row.budget, equity), equity);
  return [
    line('max_notional', notional, row.risk_limits.maxNotional),
    line('daily_loss', Math.max(0, -bot.todayPnl), row.risk_limits.dailyLossLimit),
    line('drawdown', drawdown, row.risk_limits.maxDrawdownPercent),
    line('leverage', row.leverage, null),
  ];
}

function toApproval(a: ApprovalRow): AgentApproval {
  return {
    id: a.id,
    agentId: a.bot_id,
    decisionId: a.decision_id,
    action: a.action,
    sizeFraction: a.size_fraction,
    state: a.state,
    createdAt: a.created_at.getTime(),
    expiresAt: a.expires_at.getTime(),
    decidedAt: a.decided_at?.getTime() ?? null,
    note: a.note,
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
