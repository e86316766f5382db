import { roundToStep } from '../math/rounding';

/** The market a plan is drawn at: the price now, and the bot's budget (USDT) and leverage */
export interface PlanMarket {
  price: number;
  budget: number;
  leverage: number;
}

/**
 * One order a strategy's parameters imply, as the strategy would send it: a grid level, a DCA base or safety
 * order, a signal strategy's entry. Its quantity is before rounding to the symbol's step: the check rounds it as the
 * exchange's client does (down)
 */
export interface PlannedOrder {
  /** In the words of the form: "the base order", "safety order 3", "the level at 49,000" */
  what: string;
  side: 'buy' | 'sell';
  /** Where it trades: its limit price, or the price now for a market order */
  price: number;
  quantity: number;
  /** Reduce-only orders only close: the exchange asks no minimum notional of them and they need no margin */
  reduceOnly: boolean;
  /** A market order (a DCA base, a grid's opening, an entry): the exchange holds it to MARKET_LOT_SIZE's maximum */
  market?: boolean;
  /** The parameter that sizes it, `quantity = value / perUnit`, so the smallest value that works can be said */
  sizedBy: { param: string; value: number; perUnit: number };
  /** Sent only after a fill (a grid's counter-order on the level it started at): not in the margin of the start */
  later?: boolean;
}

/** The symbol's filters from the exchange (`LOT_SIZE` / `MARKET_LOT_SIZE`, `MIN_NOTIONAL`) */
export interface SymbolRules {
  /** The asset quantities are in (BTC for BTCUSDT) */
  baseAsset: string;
  stepSize: number;
  minQty: number;
  maxQty: number;
  /** MARKET_LOT_SIZE's maximum, far below LOT_SIZE's on Binance (120 BTC against 1,000); LOT_SIZE's when absent */
  marketMaxQty?: number;
  minNotional: number;
  /**
   * The account's leverage brackets on the symbol (`GET /fapi/v1/leverageBracket`): the most leverage a position up
   * to each cap may have. Absent: not known (no keys), and not checked
   */
  leverageBrackets?: ReadonlyArray<{ notionalCap: number; initialLeverage: number }>;
}

/** What the exchange would refuse of a plan: one line a problem, in the form's words */
export interface PlanProblem {
  /** The parameter to change (`budget` for the margin) */
  param: string;
  message: string;
  /** The smallest value of `param` that passes (rounded up for the eye) */
  smallest?: number;
}

const fmt = (v: number) => Number(v.toPrecision(8)).toString();

/** `v` rounded up to two significant decimals of its size, so "the smallest that works" is a number one types */
function roundUpForTyping(v: number): number {
  if (!(v > 0)) return v;
  const magnitude = 10 ** (Math.floor(Math.log10(v)) - 2);
  return Number((Math.ceil(v / magnitude - 1e-9) * magnitude).toPrecision(12));
}

/**
 * The quantity an order needs to pass the symbol's filters at `price`: at least one step and the minimum lot, and
 * (opening orders) at least the minimum notional
 */
export function smallestQuantity(rules: SymbolRules, price: number, reduceOnly: boolean): number {
  const byNotional = reduceOnly ? 0 : roundToStep(rules.minNotional / price, rules.stepSize, 'up');
  return Math.max(rules.minQty, rules.stepSize, byNotional);
}

/** A plan's order as the exchange would get it: the quantity rounded down to the step, and its value */
export interface RoundedOrder extends PlannedOrder {
  /** USDT at its price */
  notional: number;
}

/** What a plan stands for at the start: its orders rounded, the value of each side and the margin they hold */
export interface PlanFigures {
  orders: RoundedOrder[];
  /** USDT of the opening orders standing at the start, buys and sells apart (counter-orders come later) */
  buyNotional: number;
  sellNotional: number;
  /** The margin those orders need at the bot's leverage: Binance reserves it for the larger side */
  margin: number;
}

export function planFigures(
  orders: readonly PlannedOrder[],
  rules: SymbolRules,
  market: PlanMarket,
): PlanFigures {
  let buyNotional = 0;
  let sellNotional = 0;
  const rounded = orders.map((o): RoundedOrder => {
    const quantity = roundToStep(o.quantity, rules.stepSize, 'down');
    const notional = quantity * o.price;
    if (!o.reduceOnly && !o.later) {
      if (o.side === 'buy') buyNotional += notional;
      else sellNotional += notional;
    }
    return { ...o, quantity, notional };
  });
  return {
    orders: rounded,
    buyNotional,
    sellNotional,
    margin: Math.max(buyNotional, sellNotional) / market.leverage,
  };
}

/**
 * The leverage the exchange allows a position as large as the plan's orders can build (all of one side filled):
 * the bracket whose cap holds that notional. A leverage above it is refused by Binance (`-2027`), at the start or
 * as the position grows into the bracket
 */
function bracketProblem(notional: number, rules: SymbolRules, leverage: number): PlanProblem | undefined {
  const brackets = [...(rules.leverageBrackets ?? [])].sort((a, b) => a.notionalCap - b.notionalCap);
  if (brackets.length === 0 || !(notional > 0)) return undefined;
  const holding = brackets.find((b) => notional <= b.notionalCap) ?? brackets.at(-1);
  if (!holding || leverage <= holding.initialLeverage) return undefined;
  return {
    param: 'leverage',
    message:
      `leverage: its orders can build a position of ${fmt(Number(notional.toFixed(2)))} USDT, and the exchange ` +
      `allows at most ${holding.initialLeverage}× on a position up to ${fmt(holding.notionalCap)} USDT: the most ` +
      `leverage that works is ${holding.initialLeverage}× (or fewer or smaller orders)`,
  };
}

/** The fee rates a plan's round trips are judged at (fractions of the notional) */
export interface FeeRates {
  maker: number;
  taker: number;
}

/** What a round trip is judged at: the fee rates, and the symbol's step its quantity is rounded down to */
export interface RoundTripAt {
  fees: FeeRates;
  stepSize: number;
}

/** What one round trip between neighbouring levels earns after both makers' fees, USDT and share of its notional */
export interface LevelProfit {
  minNet: number;
  maxNet: number;
  minNetPct: number;
  maxNetPct: number;
}

/**
 * Checks a plan against the symbol's filters and the bot's budget. Each sizing parameter is reported once, with
 * the smallest value that makes every order it sizes pass; an order above the maximum lot is reported with that
 * maximum. Then the margin: the opening orders standing at once (buys and sells apart: the larger side counts, as
 * Binance reserves margin for open orders) at the bot's leverage against its budget. Empty: the exchange takes it
 */
export function checkOrderPlan(
  orders: readonly PlannedOrder[],
  rules: SymbolRules,
  market: PlanMarket,
): PlanProblem[] {
  const problems: PlanProblem[] = [];
  const smallestBy = new Map<string, { smallest: number; order: PlannedOrder; rounded: number }>();
  const tooLarge = new Set<string>();
  for (const o of orders) {
    const rounded = roundToStep(o.quantity, rules.stepSize, 'down');
    const need = smallestQuantity(rules, o.price, o.reduceOnly);
    if (rounded < need - 1e-12) {
      const smallest = need * o.sizedBy.perUnit;
      const known = smallestBy.get(o.sizedBy.param);
      if (!known || smallest > known.smallest)
        smallestBy.set(o.sizedBy.param, { smallest, order: o, rounded });
    }
    const largest = o.market ? (rules.marketMaxQty ?? rules.maxQty) : rules.maxQty;
    if (rounded > largest + 1e-12 && !tooLarge.has(o.sizedBy.param)) {
      tooLarge.add(o.sizedBy.param);
      problems.push({
        param: o.sizedBy.param,
        message:
          `${o.sizedBy.param}: ${o.what} would be ${fmt(rounded)} ${rules.baseAsset}, above the exchange's ` +
          `largest ${o.market ? 'market order' : 'order'} of ${fmt(largest)} ${rules.baseAsset}`,
      });
    }
  }
  for (const [param, { smallest, order, rounded }] of smallestBy) {
    const value = order.sizedBy.value;
    const typed = roundUpForTyping(smallest);
    const a = rules.baseAsset;
    problems.push({
      param,
      smallest: typed,
      message:
        `${param}: ${fmt(value)} makes ${order.what} an order of ${fmt(rounded)} ${a} ` +
        `(${fmt(Number((rounded * order.price).toFixed(2)))} USDT); the exchange takes at least ` +
        `${fmt(Math.max(rules.minQty, rules.stepSize))} ${a} and ${fmt(rules.minNotional)} USDT an order, in steps ` +
        `of ${fmt(rules.stepSize)} ${a}: the smallest ${param} that works is ${fmt(typed)}`,
    });
  }
  const { margin, buyNotional, sellNotional } = planFigures(orders, rules, market);
  const bracket = bracketProblem(Math.max(buyNotional, sellNotional), rules, market.leverage);
  if (bracket) problems.push(bracket);
  if (problems.length === 0 && margin > market.budget * (1 + 1e-9)) {
    const typed = roundUpForTyping(margin);
    problems.push({
      param: 'budget',
      smallest: typed,
      message:
        `budget: its orders need ${fmt(Number(margin.toFixed(2)))} USDT of margin at ${market.leverage}× and the ` +
        `budget is ${fmt(market.budget)} USDT; the smallest budget that works is ${fmt(typed)} USDT (or fewer or ` +
        'smaller orders, or more leverage)',
    });
  }
  return problems;
}
