import type {
  AgentGuardCheck,
  AgentGuardCheckName,
  AgentGuardResult,
  AgentStage,
} from '@kestrel/contracts/agents';
import type { BotMode, BotRiskLimits } from '@kestrel/contracts/bots';
import { type PreTradeCheck, passed, refused, type Verdict } from './verdict';

/**
 * The pre-trade pipeline's agent rules (the agent's risk guard): deterministic rules outside the model, run on every proposal before any order, each check
 * recorded with its figure before and after the order and its limit. Fail-closed: a check whose figure is missing
 * or not a finite number fails. An exit (reducing the position toward flat) is never refused: its checks are still
 * recorded, as passed, with what they measured, so the record shows an exit that went out during a breach.
 */

/** Orders an agent may send in any 60 s window (an entry with its stop is two) */
export const AGENT_MAX_ORDERS_PER_MINUTE = 6;
/** Largest distance of the order's price from the mark price, as a fraction */
export const AGENT_MAX_PRICE_DEVIATION = 0.02;
/** A closed bar older than this (past its close) is stale: no entries on it */
export function staleAfterMs(intervalMs: number): number {
  return Math.max(30_000, Math.min(intervalMs / 2, 5 * 60_000));
}

export interface GuardInput {
  /** Signed quantity change the order makes (positive buys); 0 when nothing would be sent */
  qty: number;
  /** The price the order is sized and checked at (the bar's close) */
  price: number;
  /** The exchange's mark price now, null when it cannot be read */
  markPrice: number | null;
  now: number;
  /** Open time of the bar decided on and the bar length: its close is barTime + intervalMs */
  barTime: number;
  intervalMs: number;
  latched: boolean;
  stage: AgentStage;
  mode: BotMode;
  position: { qty: number; equity: number; peakEquity: number; todayPnl: number };
  limits: BotRiskLimits;
  leverage: number;
  /** Largest notional the exchange allows at the bot's leverage (its leverage bracket) */
  bracketMaxNotional: number | null;
  /** The agent's orders in the last 60 s, and how many this proposal sends */
  ordersLastMinute: number;
  ordersToSend: number;
  filters: { stepSize: number; minNotional: number };
}

const fmt = (v: number, digits = 2) =>
  Number.isFinite(v)
    ? v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })
    : '—';
const finite = (...vs: (number | null)[]) => vs.every((v) => v !== null && Number.isFinite(v));

/** Stages in which a mode may trade: paper on paper, the live stages live; backtest trades nowhere */
export function stageTrades(stage: AgentStage, mode: BotMode): boolean {
  if (stage === 'paper') return mode === 'paper';
  if (stage === 'live_approval' || stage === 'live_auto') return mode === 'live';
  return false;
}

export function runGuard(input: GuardInput): AgentGuardResult {
  const { qty, price, position, limits } = input;
  const after = position.qty + qty;
  // An exit is measured, not trusted from a label: an order that only moves the position toward flat, no flip
  const exit =
    qty !== 0 && Math.abs(after) < Math.abs(position.qty) && Math.sign(after) * Math.sign(position.qty) >= 0;
  const checks: AgentGuardCheck[] = [];
  const add = (
    check: AgentGuardCheckName,
    ok: boolean,
    figures: { before?: number | null; after?: number | null; limit?: number | null },
    detail: string,
  ) => {
    // An exit is never refused: its check is recorded as it measured, and passes
    const passed = exit || ok;
    checks.push({
      check,
      passed,
      before: figures.before ?? null,
      after: figures.after ?? null,
      limit: figures.limit ?? null,
      detail: exit && !ok ? `${detail} (an exit always passes)` : detail,
    });
  };

  const closeTime = input.barTime + input.intervalMs;
  const age = input.now - closeTime;
  const staleLimit = staleAfterMs(input.intervalMs);
  add(
    'data_fresh',
    finite(age, price) && age <= staleLimit && price > 0,
    { before: age, limit: staleLimit },
    finite(age)
      ? `The bar closed ${fmt(age / 1000, 1)} s ago (at most ${fmt(staleLimit / 1000, 0)} s)`
      : 'The bar’s close time cannot be read',
  );

  add(
    'latch',
    !input.latched,
    {},
    input.latched ? 'The agent is latched: a person must reset it' : 'Not latched',
  );

  add(
    'stage',
    stageTrades(input.stage, input.mode),
    {},
    stageTrades(input.stage, input.mode)
      ? `Stage ${input.stage} trades in ${input.mode} mode`
      : `Stage ${input.stage} does not trade in ${input.mode} mode`,
  );

  const notionalBefore = Math.abs(position.qty) * price;
  const notionalAfter = Math.abs(after) * price;
  const grows = Math.abs(after) > Math.abs(position.qty) + 1e-12;
  if (limits.maxNotional === null) {
    add(
      'max_notional',
      finite(notionalAfter),
      { before: notionalBefore, after: notionalAfter },
      'No notional limit set',
    );
  } else {
    const ok = finite(notionalAfter) && (!grows || notionalAfter <= limits.maxNotional);
    add(
      'max_notional',
      ok,
      { before: notionalBefore, after: notionalAfter, limit: limits.maxNotional },
      `Notional after the order ${fmt(notionalAfter)} USDT of ${fmt(limits.maxNotional)} allowed`,
    );
  }

  const loss = -position.todayPnl;
  if (limits.dailyLossLimit === null) {
    add('daily_loss', finite(loss), { before: loss }, 'No daily loss limit set');
  } else {
    add(
      'daily_loss',
      finite(loss) && loss < limits.dailyLossLimit,
      { before: loss, limit: limits.dailyLossLimit },
      `Loss today ${fmt(loss)} USDT of ${fmt(limits.dailyLossLimit)} allowed`,
    );
  }

  const drawdown =
    position.peakEquity > 0
      ? ((position.peakEquity - position.equity) / position.peakEquity) * 100
      : Number.NaN;
  if (limits.maxDrawdownPercent === null) {
    add('drawdown', finite(drawdown), { before: drawdown }, 'No drawdown limit set');
  } else {
    add(
      'drawdown',
      finite(drawdown) && drawdown < limits.maxDrawdownPercent,
      { before: drawdown, limit: limits.maxDrawdownPercent },
      `Drawdown ${fmt(drawdown)} % of ${fmt(limits.maxDrawdownPercent)} % allowed`,
    );
  }

  const cap = input.bracketMaxNotional;
  add(
    'leverage_bracket',
    cap !== null && finite(cap, notionalAfter) && (!grows || notionalAfter <= cap),
    { before: notionalBefore, after: notionalAfter, limit: cap },
    cap === null
      ? 'The leverage brackets cannot be read'
      : `At ${input.leverage}× the exchange allows ${fmt(cap, 0)} USDT; after the order ${fmt(notionalAfter)}`,
  );

  const ordersAfter = input.ordersLastMinute + input.ordersToSend;
  add(
    'orders_per_minute',
    ordersAfter <= AGENT_MAX_ORDERS_PER_MINUTE,
    { before: input.ordersLastMinute, after: ordersAfter, limit: AGENT_MAX_ORDERS_PER_MINUTE },
    `${ordersAfter} orders in the last minute with this one, of ${AGENT_MAX_ORDERS_PER_MINUTE}`,
  );

  const mark = input.markPrice;
  const deviation = mark !== null && mark > 0 ? Math.abs(price - mark) / mark : Number.NaN;
  add(
    'price_vs_mark',
    finite(deviation) && deviation <= AGENT_MAX_PRICE_DEVIATION,
    { before: mark, after: price, limit: AGENT_MAX_PRICE_DEVIATION },
    finite(deviation)
      ? `Price ${fmt(price)} is ${fmt(deviation * 100)} % from the mark ${fmt(mark ?? Number.NaN)} (at most ${fmt(AGENT_MAX_PRICE_DEVIATION * 100)} %)`
      : 'The mark price cannot be read',
  );

  const absQty = Math.abs(qty);
  const orderNotional = absQty * price;
  const { stepSize, minNotional } = input.filters;
  const stepOk = finite(stepSize) && stepSize > 0 && absQty + 1e-12 >= stepSize;
  const notionalOk = finite(minNotional, orderNotional) && orderNotional + 1e-9 >= minNotional;
  add(
    'exchange_filters',
    stepOk && notionalOk,
    { after: orderNotional, limit: minNotional },
    !stepOk
      ? `Quantity ${absQty} is below the step size ${stepSize}`
      : `Order notional ${fmt(orderNotional)} USDT (at least ${fmt(minNotional)})`,
  );

  return { passed: checks.every((c) => c.passed), exit, proposedQty: qty, price, checks };
}

/**
 * The agent rules as a check of the pipeline: the agent session runs `runGuard` on each proposal (it records every
 * rule with its figures) and hands the order manager this verdict with the order
 */
export const agentRulesCheck: PreTradeCheck<GuardInput> = {
  name: 'agent_rules',
  appliesTo: ['agent'],
  run: (input) => agentVerdict(runGuard(input)),
};

/** The guard's result in the pipeline's words: passed, or refused by its first failed rule */
export function agentVerdict(result: AgentGuardResult): Verdict {
  const failed = result.checks.find((c) => !c.passed);
  if (result.passed || !failed) return passed('agent_rules');
  return refused('agent_rules', failed.check, failed.detail, {
    failed: result.checks.filter((c) => !c.passed).map((c) => c.check),
    proposedQty: result.proposedQty,
    price: result.price,
  });
}
