import type { CreateOrderRequest } from '@kestrel/contracts';
import type { AgentApproval, AgentLatch, AgentPromotionGate, AgentStage } from '@kestrel/contracts/agents';
import type { AgentEvidence as EngineEvidence } from '@kestrel/engine';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import { STOPPED_BY_KILL_SWITCH } from '../bots/bot-lifecycle';
import type { BotLog } from '../bots/bot-log';
import { accountOfBot, type BotRow, botRepository } from '../bots/bot-repository';
import type { BotRunner } from '../bots/bot-runner';
import type { PaperFigures } from '../bots/bot-step';
import type { StoredIntent } from '../orders/order-intent-repository';
import { type ApprovalRow, agentApprovalRepository } from './agent-approval-repository';
import { agentDecisionRepository } from './agent-decision-repository';
import { type AgentStateRow, agentRepository } from './agent-repository';
import { finiteOrNull, isAgent } from './agent-rows';
import { EVIDENCE_GATE_LABELS } from './agent-training';

export const KILLED_BY_YOU = 'Killed by you';
/** Decisions an agent must have recorded on paper before it may go live (a track record to compare) */
export const PAPER_DECISIONS_FOR_LIVE = 24;
/** Proposals the owner must have approved and seen carried out before the agent may trade by itself */
export const APPROVALS_FOR_AUTO = 3;

export interface AgentStagesDeps {
  db: Database;
  clock: Clock;
  runner: Pick<BotRunner, 'figures' | 'stopBot'>;
  log: BotLog;
  /**
   * Places a bot's order through the order manager (the one order path: its risk guard, its intent keys), on the
   * bot's account (`accountOfBot`). Only the latch's reduce-only close uses it: a session may be gone by then, and
   * every other agent order is its strategy's, sent by the bot's account on the order port every bot has
   */
  placeOrder(input: {
    account: TradingAccount;
    botId: string;
    intentKey: string;
    order: CreateOrderRequest;
  }): Promise<StoredIntent>;
  /** The user's agent (404 for an unknown id, another user's bot or a bot that is not an agent) */
  agent(userId: string, id: string): Promise<BotRow>;
}

/**
 * An agent's way to live trading and back: stages (backtest → paper → live_approval → live_auto) and the gates of
 * each promotion, the approval queue of live_approval, the kill and the latch (a breach, the account's kill
 * switch) that demote it to paper and keep it from starting until a person resets it
 */
export class AgentStages {
  constructor(private readonly deps: AgentStagesDeps) {}

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
      await agentApprovalRepository.dropPending(
        this.deps.db,
        id,
        `Dropped: the agent moved to stage ${stage}`,
        now,
      );
    }
    await this.deps.log.record(row, 'updated', `Stage ${state.stage} → ${stage}`, {
      from: state.stage,
      to: stage,
    });
    return { stage, gates };
  }

  /** The gates of the promotion to `to` (null: there is none above live_auto) */
  async gates(
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
    const paper = await agentDecisionRepository.countDecisions(db, row.id, 'paper');
    gate(
      'paper_record',
      `At least ${PAPER_DECISIONS_FOR_LIVE} decisions recorded on paper`,
      paper >= PAPER_DECISIONS_FOR_LIVE,
      paper,
      PAPER_DECISIONS_FOR_LIVE,
    );
    gate('live_mode', 'The bot is set to live mode (stop it and change its mode first)', row.mode === 'live');
    if (to === 'live_approval') return { to, gates };
    const approved = await agentApprovalRepository.countExecutedApprovals(db, row.id);
    gate(
      'approvals',
      `At least ${APPROVALS_FOR_AUTO} proposals approved and carried out`,
      approved >= APPROVALS_FOR_AUTO,
      approved,
      APPROVALS_FOR_AUTO,
    );
    return { to, gates };
  }

  /**
   * The kill: latched first (fail-closed: no entry passes the guard from here on), then the bot stopped (its
   * orders canceled), its position closed reduce-only, the agent demoted to paper. The latch is kept in the
   * database until a person resets it: the agent does not start, here or after a restart
   */
  async kill(userId: string, id: string): Promise<void> {
    const row = await this.row(userId, id);
    await this.latchAndWindDown(row, 'kill', KILLED_BY_YOU, { stop: true });
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
    await agentApprovalRepository.dropPending(db, row.id, `Dropped: ${reason}`, now);
    const figures = this.deps.runner.figures(row.id);
    const stored = figures ? undefined : (await botRepository.statusOf(db, [row])).get(row.id)?.figures;
    const positionQty =
      how.positionQty ??
      figures?.positionQty ??
      Number((stored as Partial<PaperFigures> | undefined)?.positionQty ?? 0);
    if (how.stop) await this.deps.runner.stopBot(row, 'stopped', `${reason}: the agent is latched`);
    if (row.mode === 'live' && positionQty !== 0) {
      const intent = await this.deps.placeOrder({
        account: accountOfBot(row),
        botId: row.id,
        // One close per latch: a second kill asks for the same intent, never a second order
        intentKey: `latch:${(await agentRepository.state(db, row.id, now)).latched_at?.getTime() ?? now.getTime()}`,
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
      await agentApprovalRepository.dropPending(db, row.id, `Dropped: ${STOPPED_BY_KILL_SWITCH}`, now);
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
        { latch: 'kill' },
      );
    }
  }

  async resetLatch(userId: string, id: string): Promise<void> {
    const row = await this.row(userId, id);
    const now = this.deps.clock.now();
    await agentRepository.state(this.deps.db, id, now);
    if (!(await agentRepository.resetLatch(this.deps.db, id, now))) {
      throw new HttpError(409, 'AGENT_NOT_LATCHED', 'This agent is not latched');
    }
    await this.deps.log.record(row, 'updated', 'Latch reset by you: the agent may start again (on paper)');
  }

  /** Refuses to start a latched or an untrained agent (the bots' start asks this) */
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
    // Untrained it would only wait on its first training, deciding nothing meanwhile: train first, then start
    if (!(await agentRepository.hasModel(this.deps.db, row.id))) {
      throw new HttpError(
        409,
        'AGENT_UNTRAINED',
        'This agent has no trained model yet: train it (Train now) and start it when the training has finished',
      );
    }
  }

  async approvals(userId: string, id: string): Promise<AgentApproval[]> {
    await this.row(userId, id);
    const now = this.deps.clock.now();
    await this.expire(id, now);
    return (await agentApprovalRepository.approvals(this.deps.db, id)).map(toApproval);
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
    const existing = await agentApprovalRepository.approval(this.deps.db, id, approvalId);
    if (!existing) throw new HttpError(404, 'APPROVAL_NOT_FOUND', 'No such proposal of this agent');
    const note =
      verdict === 'approve'
        ? 'Approved by you: carried out at the next bar close, through the risk guard'
        : 'Rejected by you';
    const decided = await agentApprovalRepository.decideApproval(
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
    await agentDecisionRepository.setOutcome(
      this.deps.db,
      decided.decision_id,
      verdict === 'approve' ? 'approved' : 'rejected',
      note,
    );
    await this.deps.log.record(row, 'signal', `${note} (${decided.action})`, { approvalId, verdict });
    return toApproval(decided);
  }

  private async expire(id: string, now: Date): Promise<void> {
    for (const a of await agentApprovalRepository.expireApprovals(this.deps.db, id, now)) {
      await agentDecisionRepository.setOutcome(
        this.deps.db,
        a.decision_id,
        'expired',
        'The proposal expired unanswered',
      );
    }
  }

  private row(userId: string, id: string): Promise<BotRow> {
    return this.deps.agent(userId, id);
  }
}

export const STAGE_ORDER: readonly AgentStage[] = ['backtest', 'paper', 'live_approval', 'live_auto'];
export const nextStage = (s: AgentStage): AgentStage | null =>
  STAGE_ORDER[STAGE_ORDER.indexOf(s) + 1] ?? null;

export function latchOf(s: AgentStateRow): AgentLatch | null {
  if (s.latch_cause === null) return null;
  return {
    cause: s.latch_cause,
    reason: s.latch_reason ?? '',
    latchedAt: s.latched_at?.getTime() ?? 0,
    fromStage: s.latch_from_stage ?? 'paper',
  };
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
