import type {
  AgentDecisionNotice,
  AgentDecisionOutcome,
  AgentDecisionRecord,
  AgentGuardResult,
  AgentStage,
} from '@kestrel/contracts/agents';
import { AGENT_DECISION_NOTICE_TYPE } from '@kestrel/contracts/agents';
import type { BotOrder } from '@kestrel/contracts/bots';
import {
  type AgentConfig,
  type AgentDecision,
  type AgentModel,
  type AgentSnapshot,
  applyDecision,
  BTCUSDT_BRACKETS,
  decideAgent,
  FEATURE_LOOKBACK,
  intervalToMs,
  maxNotionalAt,
  mlAgentStrategy,
  parseAgentConfig,
  roundToStep,
  type StrategyType,
  stopPriceFor,
} from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { ExchangeAdapter } from '../../core/exchange/exchange-adapter';
import type { RunBrackets } from '../../core/market-data/leverage-brackets';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import type { BotRow } from '../bots/bot-repository';
import type { AgentSessionHooks } from '../bots/bot-session';
import type { BarOutcome, BotBar, BotLogEntry, PaperFigures } from '../bots/paper-account';
import { runGuard } from './agent-guard';
import { type AgentExecution, agentRepository, type StoredDecision, summaryOf } from './agent-repository';
import type { AgentSnapshots } from './agent-snapshot';
import type { AgentReview, AgentReviewer } from './llm-reviewer/reviewer';

/** How long a proposal of stage live_approval waits for the owner's click */
export const AGENT_APPROVAL_TTL_MS = 15 * 60_000;
/** Bars of history a decision's snapshot holds: the features' lookback and room for their own warm-up */
export const DECISION_BARS = FEATURE_LOOKBACK * 3;

export interface AgentRuntimeDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  reviewer: AgentReviewer;
  exchange: Pick<ExchangeAdapter, 'symbolInfo' | 'ticker'>;
  /** Point-in-time snapshots (closed bars and the aux columns the exchange serves) */
  snapshots: Pick<AgentSnapshots, 'load'>;
  brackets(userId: string, symbol: string): Promise<RunBrackets>;
  /** Pushes a decision's summary to the owner's sockets (`notifications/bot`, type agent_decision) */
  publish(userId: string, notice: AgentDecisionNotice): Promise<void>;
  /** Starts a training when the agent has no fresh model or its retrain is due (never waits for it) */
  retrainIfDue(row: BotRow, model: AgentModel | undefined, barClose: number): void;
  /**
   * A limit was breached while it traded: latched (in the database), its position closed reduce-only and demoted
   * to paper, before the session stops it (canceling its orders)
   */
  latch(row: BotRow, reason: string, positionQty: number): Promise<void>;
}

/** Orders whose fills are still joined to their decision's record (a resting stop can wait many bars) */
const MAX_TRACKED_ORDERS = 1_000;

const isEntry = (a: AgentDecision['action']) => a === 'enter_long' || a === 'enter_short';
const ORDER_KINDS = new Set(['order_sent', 'order_refused', 'order_unknown']);

/**
 * One running agent's runtime inside its bot session (paper or live: the same account and order path as every
 * bot). On every closed bar, before the account trades it: expired approvals recorded; a point-in-time snapshot of
 * the closed bars; `decideAgent` with the newest model; the LLM reviewer for entries (it may shrink or veto); the
 * stage (backtest: recorded only; live_approval: entries queued for the owner); the risk guard's checklist; and the
 * decision record written BEFORE any order, with what will be executed. The account's strategy (this class's
 * `type`) then carries it out through `applyDecision`. After the bar, the record gets its orders and fills.
 *
 * A bar already recorded (a restart, a takeover) is not decided again: what it executed is re-applied, so the
 * account is rebuilt exactly and a live order is asked for under the same intent key (never sent twice).
 */
export class AgentSessionRuntime implements AgentSessionHooks {
  readonly type: StrategyType;
  private readonly config: AgentConfig;
  private readonly intervalMs: number;
  /** What the strategy carries out at the bar being traded */
  private pending: AgentExecution | null = null;
  /** The record of the bar being traded (undefined for a bar decided before) */
  private current: StoredDecision | undefined;
  /** The record of a bar decided before a restart, being replayed: its orders are mapped again, not re-recorded */
  private replayed: StoredDecision | undefined;
  /** The stop of the position the agent opened (its decisions' exit rule reads it) */
  private stopPrice: number | null = null;
  /** The stop was looked up in the records once this session (a position whose entry this session did not replay) */
  private stopRestored = false;
  /** Times (clock, ms) of the orders this session sent: the guard's orders per minute */
  private readonly sent: number[] = [];
  /** Which decision sent which order: fills are added to the record that caused them */
  private readonly orderDecision = new Map<string, string>();
  private filters: { stepSize: number; tickSize: number; minNotional: number } | undefined;
  private closed = false;

  constructor(
    readonly row: BotRow,
    private readonly deps: AgentRuntimeDeps,
  ) {
    this.config = parseAgentConfig(row.params);
    this.intervalMs = intervalToMs(row.interval as Parameters<typeof intervalToMs>[0]);
    // The engine's ml-agent settings; warm-up 1 bar: the runtime reads its own snapshots from the kline cache
    this.type = {
      ...mlAgentStrategy,
      warmupBars: () => 1,
      create: () => ({ onBar: (ctx) => this.execute(ctx.broker, ctx.close(0)) }),
    };
  }

  close(): void {
    this.closed = true;
  }

  /** The strategy's bar: the decided execution through the engine's one decision-to-orders path */
  private execute(port: Parameters<typeof applyDecision>[0], price: number): void {
    const e = this.pending;
    this.pending = null;
    if (!e) return;
    const decision = executionDecision(e, this.current?.barTime ?? 0);
    const applied = applyDecision(port, decision, {
      price,
      budget: this.row.budget,
      leverage: this.row.leverage,
    });
    if (e.action === 'exit') this.stopPrice = null;
    else if (applied.orders.length > 0) {
      const qty = e.action === 'enter_long' ? 1 : -1;
      this.stopPrice = stopPriceFor(price, qty, e.stopPct);
    }
  }

  async beforeBar(bar: BotBar, ctx: { figures: PaperFigures | undefined }): Promise<void> {
    const { db } = this.deps;
    this.pending = null;
    this.current = undefined;
    const figures = ctx.figures;
    if (figures && figures.positionQty !== 0 && this.stopPrice === null && !this.stopRestored) {
      this.stopRestored = true;
      this.stopPrice = await this.restoredStop(bar.openTime, figures.positionQty);
    }
    const done = await agentRepository.decisionAt(db, this.row.id, bar.openTime);
    this.replayed = done;
    if (done) {
      // Decided before a restart: the same execution again (the account replays; a live intent answers as stored)
      this.pending =
        (await agentRepository.executions(db, this.row.id, bar.openTime, bar.openTime + 1)).get(
          bar.openTime,
        ) ?? null;
      return;
    }
    await this.decide(bar, figures);
  }

  async afterBar(bar: BotBar, outcome: BarOutcome | undefined, ctx: { figures: PaperFigures | undefined }) {
    const log = outcome?.log ?? [];
    const current = this.current;
    const now = this.deps.clock.now();
    if (current) {
      const orders = log.filter((e) => ORDER_KINDS.has(e.kind)).map((e) => orderOf(e, now.getTime()));
      for (const e of log) {
        if (!ORDER_KINDS.has(e.kind)) continue;
        const id = orderRef(e.data);
        if (id) this.remember(id, current.id);
        this.sent.push(now.getTime());
      }
      const refused = log.find((e) => e.kind === 'order_refused' && orderRef(e.data) !== undefined);
      const patch: Partial<AgentDecisionRecord> = {
        orders,
        positionQty: ctx.figures?.positionQty ?? current.record.positionQty,
      };
      let outcomeNow = current.record.outcome;
      let note = current.record.note;
      if (refused && current.record.outcome === 'executed') {
        outcomeNow = 'failed';
        note = `The order was refused: ${refused.message}`;
      }
      await agentRepository.setOutcome(this.deps.db, current.id, outcomeNow, note, patch);
      const record = { ...current.record, ...patch, outcome: outcomeNow, note };
      await this.push(record);
    }
    if (this.replayed) {
      // The same orders as before the restart: their later fills still join this record
      for (const e of log) {
        const id = ORDER_KINDS.has(e.kind) ? orderRef(e.data) : undefined;
        if (id) this.remember(id, this.replayed.id);
      }
    }
    // Fills on this bar belong to the decisions whose orders they fill
    for (const e of log) {
      if (e.kind !== 'order_filled') continue;
      const ref = orderRef(e.data);
      const decisionId = ref === undefined ? undefined : this.orderDecision.get(ref);
      if (!decisionId) continue;
      await this.addFill(decisionId, e, bar.openTime);
      if (e.data.liquidity !== 'liquidation' && Number(e.data.positionAfter) === 0) this.stopPrice = null;
    }
    if (ctx.figures?.positionQty === 0) this.stopPrice = null;
    if (outcome?.breach && !this.closed) {
      await this.deps.latch(this.row, outcome.breach.message, ctx.figures?.positionQty ?? 0);
    }
  }

  /**
   * The stop of a position held when this session did not replay its entry (a session resumed from what the
   * account held, not from its bars): the stop the entry's record set, from the close it was carried out at, as
   * `execute` sets it. None when the newest execution was an exit or another side's entry
   */
  private async restoredStop(before: number, positionQty: number): Promise<number | null> {
    const last = await agentRepository.lastExecution(this.deps.db, this.row.id, before);
    if (!last || !isEntry(last.executed.action)) return null;
    const side = last.executed.action === 'enter_long' ? 1 : -1;
    if (Math.sign(positionQty) !== side) return null;
    return stopPriceFor(last.price, side, last.executed.stopPct);
  }

  /** Which record an order belongs to; the oldest are let go (a fill comes within bars of its order, or never) */
  private remember(orderId: string, decisionId: string): void {
    this.orderDecision.set(orderId, decisionId);
    if (this.orderDecision.size > MAX_TRACKED_ORDERS) {
      const oldest = this.orderDecision.keys().next().value;
      if (oldest !== undefined) this.orderDecision.delete(oldest);
    }
  }

  private async addFill(decisionId: string, e: BotLogEntry, barTime: number): Promise<void> {
    const stored = await agentRepository.decision(this.deps.db, this.row.id, decisionId);
    if (!stored) return;
    const fill = {
      clientOrderId: String(orderRef(e.data) ?? ''),
      side: String(e.data.side).toUpperCase() === 'SELL' ? ('SELL' as const) : ('BUY' as const),
      price: Number(e.data.price),
      quantity: Number(e.data.quantity ?? e.data.lastQty ?? 0),
      fee: Number(e.data.fee ?? 0),
      time: Number(e.data.time ?? barTime),
    };
    // A fill replayed after a restart is already on the record
    const same = (f: (typeof stored.record.fills)[number]) =>
      f.clientOrderId === fill.clientOrderId &&
      f.time === fill.time &&
      f.quantity === fill.quantity &&
      f.price === fill.price;
    if (stored.record.fills.some(same)) return;
    await agentRepository.setOutcome(this.deps.db, decisionId, stored.record.outcome, stored.record.note, {
      fills: [...stored.record.fills, fill],
    });
  }

  private async push(record: AgentDecisionRecord): Promise<void> {
    try {
      await this.deps.publish(this.row.user_id, {
        botId: this.row.id,
        type: AGENT_DECISION_NOTICE_TYPE,
        time: record.time,
        decision: summaryOf(record),
      });
    } catch (err) {
      this.deps.logger.warn({ err, botId: this.row.id }, 'agent decision push failed');
    }
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

  private async decide(bar: BotBar, figures: PaperFigures | undefined): Promise<void> {
    const { db, clock } = this.deps;
    const row = this.row;
    const now = clock.now();
    const barClose = bar.openTime + this.intervalMs;
    for (const expired of await agentRepository.expireApprovals(db, row.id, now)) {
      await agentRepository.setOutcome(db, expired.decision_id, 'expired', 'The proposal expired unanswered');
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
      position: { qty: positionQty, entryPrice: figures?.entryPrice ?? null, stopPrice: this.stopPrice },
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
    const waiting = (await agentRepository.approvedWaiting(db, row.id))[0];
    if (waiting && (!proposal || isEntry(proposal.action))) {
      proposal = { action: waiting.action, sizeFraction: waiting.size_fraction, stopPct: waiting.stop_pct };
      approvalId = waiting.id;
    }

    if (proposal && isEntry(proposal.action) && approvalId === undefined) {
      if (state.stage === 'backtest') {
        outcome = 'not_traded';
        note = 'Stage backtest: the decision is recorded, nothing is traded';
        proposal = null;
      } else if (state.stage === 'live_approval' && (await agentRepository.countPending(db, row.id)) > 0) {
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
    if (proposal) {
      const filters = await this.symbolFilters();
      const brackets = await this.deps.brackets(row.user_id, row.symbol).catch(() => undefined);
      const bracketCap = brackets ? maxNotionalAt(brackets.brackets ?? BTCUSDT_BRACKETS, row.leverage) : null;
      const price = bar.close;
      const qty = this.proposedQty(proposal, positionQty, price, filters?.stepSize);
      const minute = now.getTime() - 60_000;
      while (this.sent.length > 0 && (this.sent[0] as number) < minute) this.sent.shift();
      const recent = Math.max(
        this.sent.length,
        await agentRepository.ordersSince(db, row.id, new Date(minute)),
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
    const stored = await agentRepository.insertDecision(db, {
      botId: row.id,
      userId: row.user_id,
      executed,
      record,
    });
    this.current = stored;
    this.pending = stored.executed;
    if (approvalId !== undefined) {
      await agentRepository.markExecuted(
        db,
        approvalId,
        bar.openTime,
        executed ? 'approved' : 'failed',
        executed ? `Carried out at the ${new Date(barClose).toISOString()} close` : note,
      );
    }
    if (queued && proposal) {
      await agentRepository.insertApproval(db, {
        botId: row.id,
        decisionId: stored.id,
        execution: proposal,
        createdAt: now,
        expiresAt: new Date(now.getTime() + AGENT_APPROVAL_TTL_MS),
      });
    }
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

/** A stored execution as the engine's decision (only the fields `applyDecision` reads matter) */
function executionDecision(e: AgentExecution, barTime: number): AgentDecision {
  return {
    barTime,
    action: e.action,
    sizeFraction: e.sizeFraction,
    stopPct: e.stopPct,
    reasonCodes: [],
    modelId: null,
    modelAgeHours: null,
    pUp: null,
    pDown: null,
    threshold: 0,
    expectedEdge: null,
    dissimilarity: null,
    predictionZ: null,
    contributions: [],
    gates: [],
    snapshotHash: '',
  };
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

/** The order's id in the bot's log: the live client order id, or the paper broker's order id */
function orderRef(data: Record<string, unknown>): string | undefined {
  if (typeof data.clientOrderId === 'string') return data.clientOrderId;
  if (typeof data.orderId === 'number' || typeof data.orderId === 'string') return `paper-${data.orderId}`;
  return undefined;
}

function orderOf(e: BotLogEntry, time: number): BotOrder {
  const d = e.data;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : null);
  return {
    clientOrderId: orderRef(d) ?? '',
    side: String(d.side).toUpperCase() === 'SELL' ? 'SELL' : 'BUY',
    type: String(d.type ?? '')
      .toUpperCase()
      .replaceAll('-', '_'),
    price: num(d.price),
    quantity: num(d.quantity) ?? '0',
    status: e.kind === 'order_refused' ? 'REJECTED' : e.kind === 'order_unknown' ? 'UNKNOWN' : 'NEW',
    reduceOnly: d.type === 'stop-market' || d.reduceOnly === true,
    time,
  };
}
