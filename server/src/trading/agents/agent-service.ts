import type { TradingEnvironment } from '@kestrel/contracts';
import type {
  AgentApproval,
  AgentDecisionRecord,
  AgentDecisionSummary,
  AgentEvidence,
  AgentHealth,
  AgentModelInfo,
  AgentRiskLine,
  AgentStage,
  AgentStatus,
  AgentTraining,
} from '@kestrel/contracts/agents';
import type { AgentConfig, AgentModel } from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import type { BotLog } from '../bots/bot-log';
import { type BotRow, botRepository } from '../bots/bot-repository';
import type { BotRunner } from '../bots/bot-runner';
import type { BotService } from '../bots/bot-service';
import type { PaperFigures } from '../bots/bot-step';
import { drawdownPercentOf } from '../risk/pre-trade/bot-limits';
import { agentApprovalRepository } from './agent-approval-repository';
import { agentDecisionRepository, summaryOf } from './agent-decision-repository';
import { AgentDecisions } from './agent-decisions';
import { agentRepository } from './agent-repository';
import { configOf, findAgent } from './agent-rows';
import type { AgentSnapshots } from './agent-snapshot';
import { AgentStages, type AgentStagesDeps, latchOf, nextStage } from './agent-stages';
import { AgentTrainingService, type TrainingJobs, trainingOf } from './agent-training';

const HOUR_MS = 3_600_000;

export interface AgentServiceDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  bots: BotService;
  runner: BotRunner;
  log: BotLog;
  /** The trainings' job queue (`agent-training-job.ts`) */
  trainings: TrainingJobs;
  /**
   * Point-in-time snapshots (closed bars and the aux columns the exchange serves) of an environment's exchange,
   * shared with the runtime: an agent learns from the market it trades in, not its owner's current one
   */
  snapshots(environment: TradingEnvironment): Pick<AgentSnapshots, 'load'>;
  /** The bot's paper (or live) fills against a backtest of the same period (the drift report), when it has run */
  paperDrift(userId: string, id: string): Promise<AgentEvidence['paperDrift']>;
  /** The latch's reduce-only close, through the order manager (`AgentStagesDeps.placeOrder` says why only it) */
  placeOrder: AgentStagesDeps['placeOrder'];
}

/**
 * The agents of the signed-in user (issue 18), by lifecycle: training and evidence (`agent-training.ts`), stages,
 * gates, approvals, the kill and its latch (`agent-stages.ts`), decision records and model health
 * (`agent-decisions.ts`); the per-bar runtime is the bot session's strategy host (`agent-session.ts`). This class
 * is what the routes (`routes/api/v1/agents/agent.ts`), the socket's agent tools and the plugin's wiring call; the
 * map from each route to the runtime is in CONTEXT.md. An agent is a bot of kind `agent`: another user's, an
 * unknown id and a bot that is not an agent are the same 404.
 */
export class AgentService {
  private readonly training: AgentTrainingService;
  private readonly stages: AgentStages;
  private readonly records: AgentDecisions;

  constructor(private readonly deps: AgentServiceDeps) {
    const agent = (userId: string, id: string) => findAgent(deps.db, userId, id);
    this.training = new AgentTrainingService({ ...deps, agent });
    this.stages = new AgentStages({ ...deps, agent });
    this.records = new AgentDecisions({ ...deps, agent });
  }

  /** `GET …/agent`: stage and the next promotion's gates, latch, model, training, last decision, risk */
  async status(userId: string, id: string): Promise<AgentStatus> {
    const row = await this.row(userId, id);
    const now = this.deps.clock.now();
    const state = await agentRepository.state(this.deps.db, id, now);
    const model = await agentRepository.latestModel(this.deps.db, id);
    const last = (await agentDecisionRepository.decisions(this.deps.db, id, undefined, 1))[0];
    const bot = await this.deps.bots.status(userId, id);
    const config = configOf(row);
    const latch = latchOf(state);
    const gates = await this.stages.gates(row, state, nextStage(state.stage));
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
      pendingApprovals: await agentApprovalRepository.countPending(this.deps.db, id),
    };
  }

  /** `GET …/decisions` */
  decisions(
    userId: string,
    id: string,
    before: number | undefined,
    limit: number,
  ): Promise<AgentDecisionSummary[]> {
    return this.records.decisions(userId, id, before, limit);
  }

  /** `GET …/decisions/{decisionId}` */
  decision(userId: string, id: string, decisionId: string): Promise<AgentDecisionRecord> {
    return this.records.decision(userId, id, decisionId);
  }

  /** `GET …/health` */
  health(userId: string, id: string): Promise<AgentHealth> {
    return this.records.health(userId, id);
  }

  /** `POST …/train`: a training starts now (202); 409 while one runs */
  train(userId: string, id: string): Promise<AgentTraining> {
    return this.training.train(userId, id);
  }

  /** `GET …/evidence` */
  evidence(userId: string, id: string): Promise<AgentEvidence> {
    return this.training.evidence(userId, id);
  }

  /** The runtime's cadence, at a bar: a training when there is no model or its retrain is due */
  retrainIfDue(row: BotRow, model: AgentModel | undefined, barClose: number): void {
    this.training.retrainIfDue(row, model, barClose);
  }

  /** A session opens: a training now when the agent has no model or its retrain is already due */
  trainIfStale(row: BotRow): Promise<void> {
    return this.training.trainIfStale(row);
  }

  /** Resolves when no training runs in this process (tests) */
  idle(): Promise<void> {
    return this.training.idle();
  }

  /** The server closes: running trainings end now (recorded as failed, with why) and no new one starts */
  close(): Promise<void> {
    return this.training.close();
  }

  /** The agent's stage now (another user's agent is the same 404 as an unknown id) */
  async stage(userId: string, id: string): Promise<AgentStage> {
    await this.row(userId, id);
    return (await agentRepository.state(this.deps.db, id, this.deps.clock.now())).stage;
  }

  /** `POST …/stage`: a demotion always, a promotion when its gates pass (409 naming the failing ones) */
  setStage(userId: string, id: string, stage: AgentStage) {
    return this.stages.setStage(userId, id, stage);
  }

  /** `GET …/approvals` */
  approvals(userId: string, id: string): Promise<AgentApproval[]> {
    return this.stages.approvals(userId, id);
  }

  /** `POST …/approvals/{approvalId}/approve|reject` */
  decide(
    userId: string,
    id: string,
    approvalId: string,
    verdict: 'approve' | 'reject',
  ): Promise<AgentApproval> {
    return this.stages.decide(userId, id, approvalId, verdict);
  }

  /** `POST …/kill`: latched, stopped, a live position closed reduce-only, demoted to paper */
  async kill(userId: string, id: string): Promise<AgentStatus> {
    await this.stages.kill(userId, id);
    return this.status(userId, id);
  }

  /** `POST …/latch/reset` (409 when not latched) */
  async resetLatch(userId: string, id: string): Promise<AgentStatus> {
    await this.stages.resetLatch(userId, id);
    return this.status(userId, id);
  }

  /** The session saw a limit breached: latched, a live position closed reduce-only, demoted */
  breach(row: BotRow, reason: string, positionQty: number): Promise<void> {
    return this.stages.breach(row, reason, positionQty);
  }

  /** The bots' start asks this: a latched agent does not start (409 `AGENT_LATCHED`) */
  assertMayStart(row: BotRow): Promise<void> {
    return this.stages.assertMayStart(row);
  }

  /** The account's kill switch, on 'bots.halting': the agents among the bots about to stop are latched first */
  latchForKillSwitch(bots: readonly BotRow[]): Promise<void> {
    return this.stages.latchForKillSwitch(bots);
  }

  /** On 'bots.halted': those agents, now stopped, are demoted to paper */
  demoteAfterKillSwitch(bots: readonly BotRow[]): Promise<void> {
    return this.stages.demoteAfterKillSwitch(bots);
  }

  /** The open session's figures: this instance's own, else the ones the instance running it last wrote */
  private async figures(row: BotRow): Promise<PaperFigures | undefined> {
    const mine = this.deps.runner.figures(row.id);
    if (mine || row.state !== 'running') return mine;
    const stored = (await botRepository.statusOf(this.deps.db, [row])).get(row.id)?.figures;
    return stored as unknown as PaperFigures | undefined;
  }

  private row(userId: string, id: string): Promise<BotRow> {
    return findAgent(this.deps.db, userId, id);
  }
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
