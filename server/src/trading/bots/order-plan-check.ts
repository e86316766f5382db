import { BacktestCostsSchema } from '@kestrel/contracts/backtest';
import type { BotPlan, BotPlanRequest, BotSuggestion } from '@kestrel/contracts/bots';
import {
  builtInStrategies,
  checkOrderPlan,
  EngineInputError,
  type FeeRates,
  type PlanMarket,
  type PlanProblem,
  paramLabel,
  planFigures,
  type StrategyType,
  type SymbolRules,
} from '@kestrel/engine';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeAdapter, SymbolInfo } from '../../core/exchange/exchange-adapter';
import { exchangeHttpError } from '../../core/exchange/exchange-http-error';
import { HttpError } from '../../lib/http-error';
import type { BotRow } from './bot-repository';

/**
 * The exchange's reads a plan is checked with, on one account: the symbol's rules and prices (public), and the
 * account's leverage brackets on it (signed: undefined without keys, or when the exchange did not answer)
 */
export type PlanReads = Pick<ExchangeAdapter, 'symbolInfo' | 'lastPrice' | 'ticker'> & {
  accountBrackets(symbol: string): Promise<SymbolRules['leverageBrackets']>;
};

async function rulesOf(market: PlanReads, info: SymbolInfo): Promise<SymbolRules> {
  const leverageBrackets = await market.accountBrackets(info.symbol);
  return {
    baseAsset: info.baseAsset,
    stepSize: Number(info.stepSize),
    minQty: Number(info.minQuantity),
    maxQty: Number(info.maxQuantity),
    marketMaxQty: Number(info.marketMaxQuantity),
    minNotional: Number(info.minNotional),
    ...(leverageBrackets ? { leverageBrackets } : {}),
  };
}

async function read<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw exchangeHttpError(err);
  }
}

/**
 * What the exchange would refuse of the orders the strategy's params imply at the symbol's price now (a quantity
 * under the lot or the minimum notional, above the largest order, more margin than the budget), each with the
 * smallest value that works. Checked at save and again at start, when the price may have moved
 */
export async function planProblems(
  market: PlanReads,
  type: StrategyType,
  params: Record<string, unknown>,
  bot: { symbol: string; budget: number; leverage: number; info: SymbolInfo },
): Promise<PlanProblem[]> {
  const price = Number(await read(() => market.lastPrice(bot.symbol)));
  if (!(price > 0)) return [];
  const at: PlanMarket = { price, budget: bot.budget, leverage: bot.leverage };
  return checkOrderPlan(type.plannedOrders(params, at), await rulesOf(market, bot.info), at);
}

const invalidBot = (message: string) => new HttpError(400, 'INVALID_BOT', `Invalid bot: ${message}`);

/** Binance's regular tier, as /backtesting's defaults: what a plan's round trips are judged at */
const REGULAR_FEES: FeeRates = (() => {
  const costs = BacktestCostsSchema.parse({});
  return { maker: costs.makerFeeRate, taker: costs.takerFeeRate };
})();

/**
 * The orders a bot with these settings would place at the symbol's price now, rounded as the exchange takes them,
 * with what they hold (notional per side, margin at its leverage), a grid's round trip after fees, and what the
 * exchange would refuse: the form shows it before the bot is saved. 400 for an unknown symbol or bad parameters
 */
export async function botPlan(market: PlanReads, type: StrategyType, ask: BotPlanRequest): Promise<BotPlan> {
  const info = await read(() => market.symbolInfo(ask.symbol));
  if (!info) throw invalidBot(`symbol: ${ask.symbol} is not listed on the exchange`);
  let params: Record<string, unknown>;
  try {
    params = type.parseParams(ask.params);
  } catch (err) {
    if (err instanceof EngineInputError) throw invalidBot(`params: ${err.message}`);
    throw err;
  }
  const price = Number(await read(() => market.lastPrice(ask.symbol)));
  const at: PlanMarket = { price, budget: ask.budget, leverage: ask.leverage };
  const planned = price > 0 ? type.plannedOrders(params, at) : [];
  const rules = await rulesOf(market, info);
  const figures = planFigures(planned, rules, at);
  return {
    price,
    baseAsset: info.baseAsset,
    orders: figures.orders.map((o) => ({
      what: o.what,
      side: o.side === 'buy' ? 'BUY' : 'SELL',
      price: o.price,
      quantity: o.quantity,
      notional: o.notional,
      reduceOnly: o.reduceOnly,
      later: o.later === true,
    })),
    buyNotional: figures.buyNotional,
    sellNotional: figures.sellNotional,
    margin: figures.margin,
    feeRates: REGULAR_FEES,
    levelProfit: type.levelProfit(params, { fees: REGULAR_FEES, stepSize: rules.stepSize }),
    problems: checkOrderPlan(planned, rules, at),
  };
}

/** What a new bot's starting values are asked for */
export interface BotSuggestionAsk {
  strategy: string;
  symbol: string;
  budget: number;
  leverage: number;
}

/**
 * A built-in strategy's orders checked again at the price of the start: the market may have moved since the bot
 * was saved (a level now under the minimum notional). 409 `ORDERS_REFUSED`, with what to change; nothing is sent
 */
export async function assertOrdersPass(
  market: PlanReads,
  row: Pick<BotRow, 'kind' | 'strategy' | 'params' | 'symbol' | 'budget' | 'leverage' | 'environment'>,
): Promise<void> {
  const type = row.kind === 'bot' ? builtInStrategies.get(row.strategy) : undefined;
  if (!type) return;
  const info = await read(() => market.symbolInfo(row.symbol));
  if (!info) return;
  const problems = await planProblems(market, type, row.params, { ...row, info });
  if (problems.length === 0) return;
  throw new HttpError(
    409,
    'ORDERS_REFUSED',
    `At ${row.symbol}'s price now the exchange would refuse this bot's orders: ` +
      `${problems.map((p) => p.message).join('; ')}. Change the bot, then start it.`,
  );
}

/** Four significant digits: a range a person reads and types (64,012.3 → 64,010) */
const readable = (v: number) => Number(v.toPrecision(4));

/** How far the symbol moved in the last 24 hours, as a share of the price now, and in words */
async function dayRange(
  market: PlanReads,
  symbol: string,
  price: number,
): Promise<{ moved: number; words: string }> {
  const day = await read(() => market.ticker(symbol));
  const high = Number(day.highPrice);
  const low = Number(day.lowPrice);
  const moved = high > low && low > 0 && price > 0 ? (high - low) / price : 0;
  return { moved, words: `its last 24 h ranged ${readable(low)}–${readable(high)}` };
}

/**
 * How far the price may move between a suggestion and the save or start that checks it again, and the suggested
 * values still pass: a budget sized to the margin at this very price is refused one tick up
 */
export const SUGGESTION_PRICE_MARGIN = 0.02;

/**
 * Each parameter the exchange would refuse, with the smallest value that passes at the price now and at the price
 * `SUGGESTION_PRICE_MARGIN` either side of it (the largest of the three)
 */
function raisesAcrossPrices(
  type: StrategyType,
  params: Record<string, unknown>,
  rules: SymbolRules,
  price: number,
  budget: number,
  leverage: number,
): Map<string, number> {
  const raises = new Map<string, number>();
  for (const at of [price, price * (1 - SUGGESTION_PRICE_MARGIN), price * (1 + SUGGESTION_PRICE_MARGIN)]) {
    const market: PlanMarket = { price: at, budget, leverage };
    for (const p of checkOrderPlan(type.plannedOrders(params, market), rules, market)) {
      if (p.smallest === undefined) continue;
      raises.set(p.param, Math.max(raises.get(p.param) ?? 0, p.smallest));
    }
  }
  return raises;
}

/**
 * A new bot's starting values from the market: the strategy's defaults, a grid's range around the price as wide as
 * the last 24 hours moved (2 % to 15 % each side, 10 levels), a DCA bot's first safety order a quarter of that move
 * away (0.5 % to 5 %), then every size the exchange would refuse raised to
 * the smallest it takes and the budget to what the orders need (never below the one asked), by the same check a
 * save runs, so that they still pass should the price move `SUGGESTION_PRICE_MARGIN` before the save. Every other parameter is the strategy's default
 */
export async function suggestBot(
  market: PlanReads,
  type: StrategyType,
  ask: BotSuggestionAsk,
): Promise<BotSuggestion> {
  const info = await read(() => market.symbolInfo(ask.symbol));
  if (!info) throw invalidBot(`symbol: ${ask.symbol} is not listed on the exchange`);
  const price = Number(await read(() => market.lastPrice(ask.symbol)));
  const params: Record<string, unknown> = type.parseParams(
    'leverage' in type.paramsSchema.shape ? { leverage: ask.leverage } : {},
  );
  let basis = `${ask.symbol} at ${price}`;
  if (type.id === 'dca') {
    const { moved, words } = await dayRange(market, ask.symbol, price);
    // The first safety order a quarter of a day's move away (0.5 % to 5 %): quiet markets fill it, wild ones wait
    if (moved > 0) {
      params.priceDeviation = Math.min(0.05, Math.max(0.005, Math.round((moved / 4) * 1000) / 1000));
      basis += `; ${words}: the first safety order ${((params.priceDeviation as number) * 100).toFixed(1)} % away`;
    }
  }
  if (type.id === 'grid') {
    const { moved, words } = await dayRange(market, ask.symbol, price);
    const half = Math.min(0.15, Math.max(0.02, moved));
    params.lower = readable(price * (1 - half));
    params.upper = readable(price * (1 + half));
    params.gridCount = 10;
    // A first grid trades the least the exchange takes a level: one lot here, raised below to what passes
    params.quantityPerGrid = Number(info.stepSize);
    if (moved > 0) basis += `; ${words}`;
    basis += `: a range of ±${(half * 100).toFixed(0)} % around the price`;
  }
  let budget = ask.budget;
  const adjusted: string[] = [];
  const rules = await rulesOf(market, info);
  const margin = `${SUGGESTION_PRICE_MARGIN * 100} %`;
  // Each round raises what the check names; a size raised can raise the margin, so the budget may come next
  for (let round = 0; round < 4; round++) {
    const raises = raisesAcrossPrices(type, params, rules, price, budget, ask.leverage);
    if (raises.size === 0) break;
    for (const [param, smallest] of raises) {
      if (param === 'budget') {
        budget = Math.ceil(smallest);
        adjusted.push(
          `Budget raised to ${budget} USDT: the margin its orders need at ${ask.leverage}×, ` +
            `should the price move ${margin}`,
        );
      } else {
        params[param] = smallest;
        adjusted.push(`${paramLabel(param)} raised to ${smallest}: the least the exchange takes`);
      }
    }
  }
  return { price, params: type.parseParams(params), budget, basis, adjusted };
}

/**
 * What the create form reads before a bot exists, on the trader's current environment: its starting values from
 * the market (`GET …/suggestion`) and the orders its settings would place (`POST …/plan`). 400 for a strategy that
 * is not built in
 */
export class BotPlans {
  constructor(private readonly market: (account: TradingAccount) => PlanReads) {}

  suggest(account: TradingAccount, ask: BotSuggestionAsk): Promise<BotSuggestion> {
    const type = builtInStrategies.get(ask.strategy);
    if (!type) throw invalidBot(`strategy: unknown strategy "${ask.strategy}"`);
    return suggestBot(this.market(account), type, ask);
  }

  plan(account: TradingAccount, ask: BotPlanRequest): Promise<BotPlan> {
    const type = builtInStrategies.get(ask.strategy);
    if (!type)
      throw invalidBot(`strategy: "${ask.strategy}" has no order plan (a built-in strategy has one)`);
    return botPlan(this.market(account), type, ask);
  }
}
