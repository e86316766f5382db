import type { z } from 'zod';
import type { BinanceClient } from './binance-client';
import { toConditionalOrder, toOrder } from './binance-orders';
import {
  AccountConfigSchema,
  AccountSchema,
  AlgoOrdersSchema,
  ApiRestrictionsSchema,
  CodeAnswerSchema,
  IncomeSchema,
  LeverageBracketsSchema,
  LeverageSchema,
  OrdersSchema,
  PlacedOrdersSchema,
  PositionModeSchema,
  PositionRiskSchema,
  SymbolConfigsSchema,
  UserTradesSchema,
  type WirePosition,
} from './binance-schemas';
import {
  type AccountSnapshot,
  type Decimal,
  ExchangeApiError,
  type ExchangeKeys,
  type IncomeEntry,
  type KeyPermissions,
  type LeverageBracketTier,
  type Order,
  type PlacedOrder,
  type Position,
  type PositionSide,
  type SymbolConfig,
  type Trade,
} from './exchange-adapter';

// The signed reads of an account on Binance USDⓈ-M futures (balances, positions, key permissions, order and trade
// history, income, leverage brackets) and its leverage and margin settings, in our terms. The adapter (`binance-adapter.ts`)
// delegates here

/**
 * History without a symbol asks per symbol (Binance keeps history per symbol): at most this many symbols, the most
 * recently active first, so one call stays near 35 + 10 × 20 weight of the 2400 a minute
 */
export const HISTORY_MAX_SYMBOLS = 20;

/** Per-symbol history calls in flight at once */
const HISTORY_CONCURRENCY = 4;

/** `fn` over `items`, at most `limit` at a time, results in the items' order */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A fill as /fapi/v1/userTrades writes it */
function toTrade(t: z.output<typeof UserTradesSchema>[number]): Trade {
  return {
    id: t.id,
    orderId: t.orderId,
    symbol: t.symbol,
    side: t.side,
    positionSide: t.positionSide,
    price: t.price,
    quantity: t.qty,
    quoteQuantity: t.quoteQty,
    realizedPnl: t.realizedPnl,
    commission: t.commission,
    commissionAsset: t.commissionAsset,
    maker: t.maker,
    time: t.time,
  };
}

const newestFirst = (a: { updatedAt: number }, b: { updatedAt: number }) => b.updatedAt - a.updatedAt;

function toPosition(r: WirePosition): Position {
  return {
    symbol: r.symbol,
    positionSide: r.positionSide,
    amount: r.positionAmt,
    entryPrice: r.entryPrice,
    markPrice: r.markPrice,
    unrealizedPnl: r.unRealizedProfit,
    liquidationPrice: r.liquidationPrice,
    notional: r.notional,
    // Binance's initialMargin adds the symbol's open orders; the position's own is what leverage and ROE divide by
    initialMargin: r.positionInitialMargin,
    maintenanceMargin: r.maintMargin,
    updatedAt: r.updateTime,
  };
}

export async function account(client: BinanceClient, keys: ExchangeKeys): Promise<AccountSnapshot> {
  const r = await client.signed('GET', '/fapi/v3/account', keys, AccountSchema);
  return {
    totalWalletBalance: r.totalWalletBalance,
    totalUnrealizedPnl: r.totalUnrealizedProfit,
    totalMarginBalance: r.totalMarginBalance,
    totalInitialMargin: r.totalInitialMargin,
    totalMaintMargin: r.totalMaintMargin,
    availableBalance: r.availableBalance,
    assets: r.assets.map((a) => ({
      asset: a.asset,
      walletBalance: a.walletBalance,
      unrealizedPnl: a.unrealizedProfit,
      marginBalance: a.marginBalance,
      availableBalance: a.availableBalance,
    })),
    positions: r.positions.map((p) => ({
      symbol: p.symbol,
      positionSide: p.positionSide,
      amount: p.positionAmt,
      unrealizedPnl: p.unrealizedProfit,
      notional: p.notional,
      initialMargin: p.initialMargin,
      maintenanceMargin: p.maintMargin,
      updatedAt: p.updateTime,
    })),
  };
}

/**
 * Binance reports key flags on the wallet host (/sapi/v1/account/apiRestrictions). Testnet has no wallet host:
 * there the futures accountConfig's canWithdraw is the answer.
 */
export async function keyPermissions(client: BinanceClient, keys: ExchangeKeys): Promise<KeyPermissions> {
  if (client.walletUrl) {
    const path = '/sapi/v1/account/apiRestrictions';
    const r = await client.signed('GET', path, keys, ApiRestrictionsSchema, {}, true);
    return {
      canRead: r.enableReading,
      canTradeFutures: r.enableFutures,
      canWithdraw: r.enableWithdrawals,
      ipRestricted: r.ipRestrict,
    };
  }
  const c = await client.signed('GET', '/fapi/v1/accountConfig', keys, AccountConfigSchema);
  return { canRead: true, canTradeFutures: c.canTrade, canWithdraw: c.canWithdraw, ipRestricted: false };
}

/** GET /fapi/v1/positionSide/dual: true when the account is in hedge mode (a long and a short per symbol) */
export async function hedgeMode(client: BinanceClient, keys: ExchangeKeys): Promise<boolean> {
  const r = await client.signed('GET', '/fapi/v1/positionSide/dual', keys, PositionModeSchema);
  return r.dualSidePosition;
}

export async function positions(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol?: string,
): Promise<Position[]> {
  const rows = await client.signed('GET', '/fapi/v3/positionRisk', keys, PositionRiskSchema, {
    symbol,
  });
  return rows.map(toPosition);
}

export async function orderHistory(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string | undefined,
  limit: number,
): Promise<Order[]> {
  const symbols = symbol ? [symbol] : await activeSymbols(client, keys);
  const perSymbol = await mapLimited(symbols, HISTORY_CONCURRENCY, async (s) => {
    const [orders, conditional] = await Promise.all([
      client.signed('GET', '/fapi/v1/allOrders', keys, OrdersSchema, { symbol: s, limit }),
      client.signed('GET', '/fapi/v1/allAlgoOrders', keys, AlgoOrdersSchema, { symbol: s, limit }),
    ]);
    // Binance lists oldest first: reversed, so the stable sort keeps same-millisecond orders newest first
    return [...orders.map(toOrder).reverse(), ...conditional.map(toConditionalOrder).reverse()];
  });
  return perSymbol.flat().sort(newestFirst).slice(0, limit);
}

export async function trades(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string | undefined,
  limit: number,
): Promise<Trade[]> {
  const symbols = symbol ? [symbol] : await activeSymbols(client, keys);
  const perSymbol = await mapLimited(symbols, HISTORY_CONCURRENCY, async (s) => {
    const rows = await client.signed('GET', '/fapi/v1/userTrades', keys, UserTradesSchema, {
      symbol: s,
      limit,
    });
    return rows.map(toTrade).reverse();
  });
  return perSymbol
    .flat()
    .sort((a, b) => b.time - a.time)
    .slice(0, limit);
}

export async function tradesFrom(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string,
  fromId: string,
  limit: number,
): Promise<Trade[]> {
  const rows = await client.signed('GET', '/fapi/v1/userTrades', keys, UserTradesSchema, {
    symbol,
    fromId,
    limit,
  });
  return rows.map(toTrade);
}

export async function tradesSince(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string,
  startTime: number,
  limit: number,
): Promise<Trade[]> {
  const rows = await client.signed('GET', '/fapi/v1/userTrades', keys, UserTradesSchema, {
    symbol,
    startTime,
    limit,
  });
  return rows.map(toTrade);
}

export async function ordersFrom(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string,
  orderId: string,
  limit: number,
): Promise<PlacedOrder[]> {
  const rows = await client.signed('GET', '/fapi/v1/allOrders', keys, PlacedOrdersSchema, {
    symbol,
    orderId,
    limit,
  });
  return rows.map((r) => ({ ...toOrder(r), placedAt: r.time }));
}

/**
 * Symbols the account was active in over Binance's default 7-day window (the window allOrders and userTrades
 * answer without a range), most recent first: every fill books commission income, and the v3 account lists the
 * symbols with a position or open orders. Two calls (weight 30 + 5), whatever the number of symbols
 */
async function activeSymbols(client: BinanceClient, keys: ExchangeKeys): Promise<string[]> {
  const [income, account] = await Promise.all([
    client.signed('GET', '/fapi/v1/income', keys, IncomeSchema, { limit: 1000 }),
    client.signed('GET', '/fapi/v3/account', keys, AccountSchema),
  ]);
  const lastSeen = new Map<string, number>();
  for (const p of account.positions) lastSeen.set(p.symbol, Number.POSITIVE_INFINITY);
  for (const i of income) {
    // Account-wide entries (transfers) have no symbol
    if (!i.symbol) continue;
    lastSeen.set(i.symbol, Math.max(lastSeen.get(i.symbol) ?? 0, i.time));
  }
  return [...lastSeen.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, HISTORY_MAX_SYMBOLS)
    .map(([s]) => s);
}

export async function income(
  client: BinanceClient,
  keys: ExchangeKeys,
  range: { startTime?: number; endTime?: number; limit: number },
): Promise<IncomeEntry[]> {
  const rows = await client.signed('GET', '/fapi/v1/income', keys, IncomeSchema, range);
  return rows.map((i) => ({
    symbol: i.symbol,
    incomeType: i.incomeType,
    income: i.income,
    asset: i.asset,
    info: i.info,
    time: i.time,
    tranId: i.tranId,
    tradeId: i.tradeId,
  }));
}

export async function leverageBrackets(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string,
): Promise<LeverageBracketTier[] | undefined> {
  const entries = await client.signed('GET', '/fapi/v1/leverageBracket', keys, LeverageBracketsSchema, {
    symbol,
  });
  return entries.find((e) => e.symbol === symbol)?.brackets;
}

export async function symbolConfig(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string,
): Promise<SymbolConfig | undefined> {
  const rows = await client.signed('GET', '/fapi/v1/symbolConfig', keys, SymbolConfigsSchema, { symbol });
  const row = rows.find((r) => r.symbol === symbol);
  return row
    ? {
        symbol: row.symbol,
        marginType: row.marginType === 'ISOLATED' ? 'isolated' : 'cross',
        leverage: row.leverage,
        maxNotional: row.maxNotionalValue,
      }
    : undefined;
}

/**
 * Switches the symbol between cross and isolated margin. Binance refuses it while the symbol has open orders or a
 * position (-4047, -4048); asking for the type it already has (-4046) is no change, and answered as done
 */
export async function setMarginType(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string,
  marginType: 'cross' | 'isolated',
): Promise<{ symbol: string; marginType: 'cross' | 'isolated' }> {
  try {
    await client.signed('POST', '/fapi/v1/marginType', keys, CodeAnswerSchema, {
      symbol,
      marginType: marginType === 'cross' ? 'CROSSED' : 'ISOLATED',
    });
  } catch (err) {
    if (!(err instanceof ExchangeApiError && err.code === -4046)) throw err;
  }
  return { symbol, marginType };
}

/**
 * Moves margin into or out of an isolated position (`type` 1 adds, 2 reduces). Binance refuses a cross position
 * (-4049), more than the available balance (-4050) and taking out what the position needs (-4051)
 */
export async function changePositionMargin(
  client: BinanceClient,
  keys: ExchangeKeys,
  change: { symbol: string; positionSide: PositionSide; amount: Decimal; direction: 'add' | 'reduce' },
): Promise<void> {
  await client.signed('POST', '/fapi/v1/positionMargin', keys, CodeAnswerSchema, {
    symbol: change.symbol,
    positionSide: change.positionSide,
    amount: change.amount,
    type: change.direction === 'add' ? 1 : 2,
  });
}

export async function setLeverage(
  client: BinanceClient,
  keys: ExchangeKeys,
  symbol: string,
  leverage: number,
) {
  const r = await client.signed('POST', '/fapi/v1/leverage', keys, LeverageSchema, {
    symbol,
    leverage,
  });
  return { symbol: r.symbol, leverage: r.leverage };
}
