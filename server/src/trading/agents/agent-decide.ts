import type {
  AgentDecisionOutcome,
  AgentDecisionRecord,
  AgentGuardResult,
  AgentStage,
} from '@kestrel/contracts/agents';
import {
  type AgentConfig,
  type AgentDecision,
  type AgentModel,
  type AgentSnapshot,
  BTCUSDT_BRACKETS,
  decideAgent,
  FEATURE_LOOKBACK,
  intervalToMs,
  maxNotionalAt,
  parseAgentConfig,
  roundToStep,
} from '@kestrel/engine';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeAdapter } from '../../core/exchange/exchange-adapter';
import type { RunBrackets } from '../../core/market-data/leverage-brackets';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { accountOfBot, type BotRow } from '../bots/bot-repository';
import type { BotBar, PaperFigures } from '../bots/bot-step';
import { agentApprovalRepository } from './agent-approval-repository';
import {
  type AgentExecution,
  agentDecisionRepository,
  type StoredDecision,
} from './agent-decision-repository';
import { runGuard } from './agent-guard';
import { agentRepository } from './agent-repository';
import type { AgentSnapshots } from './agent-snapshot';
import type { AgentReview, AgentReviewer } from './llm-reviewer/reviewer';

/** How long a proposal of stage live_approval waits for the owner's click */
export const AGENT_APPROVAL_TTL_MS = 15 * 60_000;
/** Bars of history a decision's snapshot holds: the features' lookback and room for their own warm-up */
export const DECISION_BARS = FEATURE_LOOKBACK * 3;

export const isEntry = (a: AgentDecision['action']) => a === 'enter_long' || a === 'enter_short';

export interface AgentDecideDeps {
  db: Database;
  clock: Clock;
  reviewer: AgentReviewer;
  exchange: Pick<ExchangeAdapter, 'symbolInfo' | 'ticker'>;
  /** Point-in-time snapshots (closed bars and the aux columns the exchange serves) */
  snapshots: Pick<AgentSnapshots, 'load'>;
  /** The symbol's leverage brackets, read with the agent's account's key */
  brackets(account: TradingAccount, symbol: string): Promise<RunBrackets>;
  /** Starts a training when the agent has no fresh model or its retrain is due (never waits for it) */
  retrainIfDue(row: BotRow, model: AgentModel | undefined, barClose: number): void;
  /** A proposal now waits for the owner's click until `expiresAt`: the owner is told (`note` says what it is) */
  approvalWaiting(row: BotRow, note: string, expiresAt: Date): Promise<void>;
}

/**
 * One agent's decision at each closed bar, before the account trades it: expired approvals recorded; a
 * point-in-time snapshot of the closed bars; `decideAgent` with the newest model; an approved proposal in place of
 * a fresh entry; the stage (backtest: recorded only; live_approval: one proposal queued at a time); the LLM
 * reviewer for entries (it may shrink or veto); the risk guard's checklist; and the record written BEFORE any
 * order, holding what the account will execute. It places no order: the session's strategy carries the
 * execution out on the account's order port
 */
export class AgentDecider {
  private readonly config: AgentConfig;
  private readonly intervalMs: number;
  /** Times (clock, ms) of the orders this session sent: the guard's orders per minute */
  private readonly sent: number[] = [];
  private filters: { stepSize: number; tickSize: number; minNotional: number } | undefined;

  constructor(
    private readonly row: BotRow,
    private readonly deps: AgentDecideDeps,
  ) {
    this.config = parseAgentConfig(row.params);
    this.intervalMs = intervalToMs(row.interval as Parameters<typeof intervalToMs>[0]);
  }

  /** An order of this session was sent at `time` (clock, ms) */
  noteSent(time: number): void {
    this.sent.push(time);
  }

  /** The closed bars up to `bar` (inclusive) from the kline cache: what was known at its close, nothing after */
  private async snapshot(bar: BotBar): Promise<AgentSnapshot> {
    const end = bar.openTime + this.intervalMs;
    return this.deps.snapshots.load(this.row.symbol, this.row.interval, this.intervalMs, {
      start: end - DECISION_BARS * this.intervalMs,
      end,
    });
  }

  private async symbolFilters() {
    if (this.filters) return this.filters;
    const info = await this.deps.exchange.symbolInfo(this.row.symbol);
    if (!info) return undefined;
    this.filters = {
      stepSize: Number(info.stepSize),
      tickSize: Number(info.tickSize),
      minNotional: Number(info.minNotional),
    };
    return this.filters;
  }

  private async referencePrice(): Promise<number | null> {
    try {
      const t = await this.deps.exchange.ticker(this.row.symbol);
      const p = Number(t.lastPrice);
      return Number.isFinite(p) && p > 0 ? p : null;
    } catch {
      return null;
    }
  }

  /**
   * Decides `bar` and writes its record before any order: the execution it holds is what the account carries out
   * (`stopPrice`: the stop of the position the agent holds, which its exit rule reads)
   */
  async decide(
    bar: BotBar,
    figures: PaperFigures | undefined,
    stopPrice: number | null,
  ): Promise<StoredDecision> {
    const { db, clock } = this.deps;
    const row = this.row;
    const now = clock.now();
    const barClose = bar.openTime + this.intervalMs;
    for (const expired of await agentApprovalRepository.expireApprovals(db, row.id, now)) {
      await agentDecisionRepository.setOutcome(
        db,
        expired.decision_id,
        'expired',
        'The proposal expired unanswered',
      );
    }
    const state = await agentRepository.state(db, row.id, now);
    const model = await agentRepository.latestModel(db, row.id);
    this.deps.retrainIfDue(row, model, barClose);
    const snapshot = await this.snapshot(bar);
    const positionQty = figures?.positionQty ?? 0;
    const decision = decideAgent({
      model: model ?? null,
      snapshot,
      config: this.config,
      position: { qty: positionQty, entryPrice: figures?.entryPrice ?? null, stopPrice },
      now: barClose,
    });

    let proposal: AgentExecution | null =
      decision.action === 'hold'
        ? null
        : { action: decision.action, sizeFraction: decision.sizeFraction, stopPct: decision.stopPct };
    let approvalId: string | undefined;
    let review: AgentReview | null = null;
    let outcome: AgentDecisionOutcome = 'hold';
    let note = holdNote(decision);

    // A proposal the owner approved is carried out at the next close, unless the model now wants out (an exit
    // always goes first); it takes the place of a fresh entry, which would otherwise wait for another click
    const waiting = (await agentApprovalRepository.approvedWaiting(db, row.id))[0];
    if (waiting && (!proposal || isEntry(proposal.action))) {
      proposal = { action: waiting.action, sizeFraction: waiting.size_fraction, stopPct: waiting.stop_pct };
      approvalId = waiting.id;
    }

    if (proposal && isEntry(proposal.action) && approvalId === undefined) {
      if (state.stage === 'backtest') {
        outcome = 'not_traded';
        note = 'Stage backtest: the decision is recorded, nothing is traded';
        proposal = null;
      } else if (
        state.stage === 'live_approval' &&
        (await agentApprovalRepository.countPending(db, row.id)) > 0
      ) {
        // One question at a time: the owner is not asked again every bar while a proposal waits
        outcome = 'not_traded';
        note = 'An earlier proposal is still waiting for your approval';
        proposal = null;
      } else {
        // The reviewer sees entries only (it may shrink or veto them); exits never wait for it
        review = await this.review(decision, state.stage, figures);
        const multiplier = review
          ? Math.max(0, Math.min(1, review.verdict === 'veto' ? 0 : review.sizeMultiplier))
          : 1;
        if (review && multiplier <= 0) {
          outcome = 'vetoed';
          note = `Vetoed by the reviewer: ${review.error ?? review.rationale}`;
          proposal = null;
        } else if (multiplier < 1) {
          proposal = { ...proposal, sizeFraction: proposal.sizeFraction * multiplier };
        }
      }
    }

    let guard: AgentGuardResult | null = null;
    let queued = false;
    /** What a proposal left waiting for the owner's click would do, in words */
    let waitingWords = '';
    if (proposal) {
      const filters = await this.symbolFilters();
      const brackets = await this.deps.brackets(accountOfBot(row), row.symbol).catch(() => undefined);
      const bracketCap = brackets ? maxNotionalAt(brackets.brackets ?? BTCUSDT_BRACKETS, row.leverage) : null;
      const price = bar.close;
      const qty = this.proposedQty(proposal, positionQty, price, filters?.stepSize);
      const minute = now.getTime() - 60_000;
      while (this.sent.length > 0 && (this.sent[0] as number) < minute) this.sent.shift();
      const recent = Math.max(
        this.sent.length,
        await agentDecisionRepository.ordersSince(db, row.id, new Date(minute)),
      );
      guard = runGuard({
        qty,
        price,
        markPrice: await this.referencePrice(),
        now: now.getTime(),
        barTime: bar.openTime,
        intervalMs: this.intervalMs,
        latched: state.latch_cause !== null,
        stage: state.stage === 'backtest' ? 'paper' : state.stage,
        mode: row.mode,
        position: {
          qty: positionQty,
          equity: figures?.equity ?? row.budget,
          // The account's own peak: the guard measures drawdown as the bot's limit does
          peakEquity: figures?.peakEquity ?? row.budget,
          todayPnl: figures?.todayPnl ?? 0,
        },
        limits: row.risk_limits,
        leverage: row.leverage,
        bracketMaxNotional: bracketCap,
        ordersLastMinute: recent,
        ordersToSend: proposal.action === 'exit' ? 1 : proposal.stopPct ? 2 : 1,
        filters: {
          stepSize: filters?.stepSize ?? Number.NaN,
          minNotional: filters?.minNotional ?? Number.NaN,
        },
      });
      if (!guard.passed) {
        outcome = 'refused';
        note = `Refused by the risk guard: ${guard.checks
          .filter((c) => !c.passed)
          .map((c) => c.detail)
          .join('; ')}`;
        proposal = null;
      } else if (state.stage === 'live_approval' && isEntry(proposal.action) && approvalId === undefined) {
        // Waits for the owner's click; carried out later, through the guard again
        outcome = 'queued';
        note = `Waiting for your approval until ${new Date(now.getTime() + AGENT_APPROVAL_TTL_MS).toISOString()}`;
        queued = true;
        waitingWords = executedNote(proposal, qty, price);
      } else {
        outcome = approvalId === undefined ? 'executed' : 'approved';
        note =
          approvalId === undefined
            ? executedNote(proposal, qty, price)
            : `Approved by you: ${executedNote(proposal, qty, price)}`;
      }
    }

    const executed = proposal && !queued ? proposal : null;
    const record: Omit<AgentDecisionRecord, 'id'> = {
      agentId: row.id,
      barTime: bar.openTime,
      time: now.getTime(),
      action:
        decision.action === 'hold' && approvalId !== undefined && executed
          ? executed.action
          : decision.action,
      outcome,
      reasonCodes: [...decision.reasonCodes],
      sizeFraction: executed?.sizeFraction ?? decision.sizeFraction,
      pUp: decision.pUp,
      pDown: decision.pDown,
      threshold: decision.threshold,
      modelId: decision.modelId,
      stage: state.stage,
      reviewVerdict: review?.verdict ?? null,
      note,
      decision: toDecisionView(decision),
      review,
      guard,
      orders: [],
      fills: [],
      positionQty,
      price: bar.close,
    };
    // Written before any order: a crash after it replays the same execution, never a different one
    const stored = await agentDecisionRepository.insertDecision(db, {
      botId: row.id,
      userId: row.user_id,
      executed,
      record,
    });
    if (approvalId !== undefined) {
      await agentApprovalRepository.markExecuted(
        db,
        approvalId,
        bar.openTime,
        executed ? 'approved' : 'failed',
        executed ? `Carried out at the ${new Date(barClose).toISOString()} close` : note,
      );
    }
    if (queued && proposal) {
      const expiresAt = new Date(now.getTime() + AGENT_APPROVAL_TTL_MS);
      await agentApprovalRepository.insertApproval(db, {
        botId: row.id,
        decisionId: stored.id,
        execution: proposal,
        createdAt: now,
        expiresAt,
      });
      await this.deps.approvalWaiting(row, waitingWords, expiresAt);
    }
    return stored;
  }

  /** Signed quantity change of the proposal, sized as `applyDecision` sizes it (budget × share × leverage / price) */
  private proposedQty(
    p: AgentExecution,
    positionQty: number,
    price: number,
    step: number | undefined,
  ): number {
    if (p.action === 'exit') return -positionQty;
    if (positionQty !== 0 || !(price > 0) || !step) return 0;
    const qty = roundToStep((this.row.budget * p.sizeFraction * this.row.leverage) / price, step);
    return p.action === 'enter_long' ? qty : -qty;
  }

  private async review(
    decision: AgentDecision,
    stage: AgentStage,
    figures: PaperFigures | undefined,
  ): Promise<AgentReview | null> {
    try {
      return await this.deps.reviewer.review({
        userId: this.row.user_id,
        agentId: this.row.id,
        decision,
        context: {
          symbol: this.row.symbol,
          interval: this.row.interval,
          stage,
          mode: this.row.mode,
          budget: this.row.budget,
          leverage: this.row.leverage,
          positionQty: figures?.positionQty ?? 0,
          equity: figures?.equity ?? this.row.budget,
          todayPnl: figures?.todayPnl ?? 0,
          riskLimits: this.row.risk_limits,
        },
      });
    } catch (err) {
      // The reviewer promises not to throw; should it, the entry it could not look at is not taken
      return {
        verdict: 'veto',
        sizeMultiplier: 0,
        rationale: '',
        citedFeatures: [],
        model: '',
        latencyMs: 0,
        promptTokens: 0,
        completionTokens: 0,
        error: `The reviewer failed: ${err instanceof Error ? err.message : String(err)}`,
        exchangeId: '',
      };
    }
  }
}

/** The decision as the contract carries it (NaN, which JSON cannot hold, as null) */
function toDecisionView(d: AgentDecision): AgentDecisionRecord['decision'] {
  const n = (v: number | null) => (v === null || !Number.isFinite(v) ? null : v);
  return {
    ...d,
    reasonCodes: [...d.reasonCodes],
    pUp: n(d.pUp),
    pDown: n(d.pDown),
    expectedEdge: n(d.expectedEdge),
    dissimilarity: n(d.dissimilarity),
    predictionZ: n(d.predictionZ),
    modelAgeHours: n(d.modelAgeHours),
    contributions: d.contributions.map((c) => ({
      ...c,
      value: n(c.value),
      scaled: n(c.scaled),
      coefficient: n(c.coefficient) ?? 0,
      contribution: n(c.contribution) ?? 0,
    })),
    gates: d.gates.map((g) => ({ ...g, value: n(g.value), limit: n(g.limit) })),
  };
}

const REASON_WORDS: Record<string, string> = {
  below_threshold: 'probability below the threshold',
  model_stale: 'the model is stale',
  no_model: 'no model trained yet',
  dissimilar: 'the market looks unlike the training data',
  weak_prediction: 'the prediction is weak',
  edge_below_costs: 'the expected edge does not cover costs',
  already_in_position: 'already in a position',
  insufficient_history: 'not enough history',
};

function holdNote(d: AgentDecision): string {
  const words = d.reasonCodes.map((c) => REASON_WORDS[c]).filter((w): w is string => Boolean(w));
  return words.length > 0 ? `Hold: ${words.join(', ')}` : 'Hold';
}

function executedNote(p: AgentExecution, qty: number, price: number): string {
  if (p.action === 'exit') return `Exit: ${Math.abs(qty)} at about ${price} (reduce-only)`;
  const side = p.action === 'enter_long' ? 'Long' : 'Short';
  return `${side} ${Math.abs(qty)} at about ${price}${p.stopPct ? `, stop ${(p.stopPct * 100).toFixed(2)} % away` : ''}`;
}
