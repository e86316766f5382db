import type { AgentDecisionNotice, AgentDecisionRecord } from '@kestrel/contracts/agents';
import { AGENT_DECISION_NOTICE_TYPE } from '@kestrel/contracts/agents';
import type { BotOrder } from '@kestrel/contracts/bots';
import {
  type AgentDecision,
  applyDecision,
  mlAgentStrategy,
  type StrategyType,
  stopPriceFor,
} from '@kestrel/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { BotRow } from '../bots/bot-repository';
import type { BarOutcome, BotBar, BotLogEntry, PaperFigures } from '../bots/bot-step';
import type { StrategyHost } from '../bots/strategy-host';
import { type AgentDecideDeps, AgentDecider, isEntry } from './agent-decide';
import {
  type AgentExecution,
  agentDecisionRepository,
  type StoredDecision,
  summaryOf,
} from './agent-decision-repository';
import { agentVerdict, type Verdict } from './agent-guard';

export interface AgentRuntimeDeps extends AgentDecideDeps {
  logger: FastifyBaseLogger;
  /** Pushes a decision's summary to the owner's sockets (`notifications/bot`, type agent_decision) */
  publish(userId: string, notice: AgentDecisionNotice): Promise<void>;
  /**
   * A limit was breached while it traded: latched (in the database), its position closed reduce-only and demoted
   * to paper, before the session stops it (canceling its orders)
   */
  latch(row: BotRow, reason: string, positionQty: number): Promise<void>;
}

/** Orders whose fills are still joined to their decision's record (a resting stop can wait many bars) */
const MAX_TRACKED_ORDERS = 1_000;

const ORDER_KINDS = new Set(['order_sent', 'order_refused', 'order_unknown']);

/**
 * One running agent's strategy host inside its bot session (paper or live: the same account and order port as
 * every bot). On every closed bar, before the account trades it, `AgentDecider` (`agent-decide.ts`) decides,
 * reviews, stages and guards it and writes its record BEFORE any order, with what will be executed. The
 * account's strategy (this class's `type`) then carries it out through the engine's `applyDecision` on the
 * account's port: this class never sends an order by itself. After the bar, the record gets its orders and fills.
 *
 * A bar already recorded (a restart, a takeover) is not decided again: what it executed is re-applied, so the
 * account is rebuilt exactly and a live order is asked for under the same intent key (never sent twice).
 */
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
export class AgentSessionRuntime implements StrategyHost {
  readonly type: StrategyType;
  readonly origin = 'agent';
  private readonly decider: AgentDecider;
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
  /** Which decision sent which order: fills are added to the record that caused them */
  private readonly orderDecision = new Map<string, string>();
  private closed = false;

  constructor(
    readonly row: BotRow,
    private readonly deps: AgentRuntimeDeps,
  ) {
    this.decider = new AgentDecider(row, deps);
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

  /** The agent rules' verdict on the bar's proposal, as its record holds it (none for a bar decided before) */
  verdicts(): readonly Verdict[] {
    const guard = this.current?.record.guard;
    return guard ? [agentVerdict(guard)] : [];
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
    const done = await agentDecisionRepository.decisionAt(db, this.row.id, bar.openTime);
    this.replayed = done;
    if (done) {
      // Decided before a restart: the same execution again (the account replays; a live intent answers as stored)
      this.pending =
        (await agentDecisionRepository.executions(db, this.row.id, bar.openTime, bar.openTime + 1)).get(
          bar.openTime,
        ) ?? null;
      return;
    }
    this.current = await this.decider.decide(bar, figures, this.stopPrice);
    this.pending = this.current.executed;
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
        this.decider.noteSent(now.getTime());
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
      await agentDecisionRepository.setOutcome(this.deps.db, current.id, outcomeNow, note, patch);
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
    const last = await agentDecisionRepository.lastExecution(this.deps.db, this.row.id, before);
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
    const stored = await agentDecisionRepository.decision(this.deps.db, this.row.id, decisionId);
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
    await agentDecisionRepository.setOutcome(
      this.deps.db,
      decisionId,
      stored.record.outcome,
      stored.record.note,
      {
        fills: [...stored.record.fills, fill],
      },
    );
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
