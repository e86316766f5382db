import { randomBytes } from 'node:crypto';
import { ORDER_TYPES, TimeInForceSchema } from '@kestrel/contracts';
import type { z } from 'zod';
import { systemClock } from '../../lib/clock';
import { BinanceClient, type BinanceClientOptions } from './binance-client';
import {
  AccountConfigSchema,
  AccountSchema,
  AlgoOrderSchema,
  AlgoOrdersSchema,
  ApiRestrictionsSchema,
  CanceledAlgoOrderSchema,
  CountdownCancelAllSchema,
  ExchangeInfoSchema,
  ExchangeSymbolSchema,
  FundingRatesSchema,
  IgnoredAnswer,
  IncomeSchema,
  KlinesSchema,
  LeverageBracketsSchema,
  LeverageSchema,
  LotSizeFilterSchema,
  MinNotionalFilterSchema,
  OrderSchema,
  OrdersSchema,
  PlacedOrdersSchema,
  PositionRiskSchema,
  PriceFilterSchema,
  readAnswer,
  Ticker24hSchema,
  UserTradesSchema,
  type WireAlgoOrder,
  type WireOrder,
  type WirePosition,
} from './binance-schemas';
import type { BinanceStreamOptions } from './binance-stream-options';
import { BinanceStreams } from './binance-streams';
import {
  type AccountSnapshot,
  type ExchangeAdapter,
  ExchangeApiError,
  type ExchangeCapabilities,
  type ExchangeKeys,
  ExchangeResponseError,
  ExchangeUnavailableError,
  type FundingRate,
  type IncomeEntry,
  isConditionalType,
  type KeyPermissions,
  type Kline,
  type LeverageBracketTier,
  LostOrderNotFoundError,
  type NewOrder,
  type Order,
  type OrderKind,
  type OrderRef,
  OrderStatusUnknownError,
  type PlacedOrder,
  type Position,
  type SymbolInfo,
  type Ticker,
  type Trade,
} from './exchange-adapter';

const CLIENT_ID = /^[.A-Za-z0-9:/_-]{1,36}$/;
/** Binance: "Order does not exist." */
const ORDER_DOES_NOT_EXIST = -2013;
/** Binance: "Unknown order sent." (cancel of an order it does not have, or one already closed) */
const UNKNOWN_ORDER = -2011;
/**
 * History without a symbol asks per symbol (Binance keeps history per symbol): at most this many symbols, the most
 * recently active first, so one call stays near 35 + 10 × 20 weight of the 2400 a minute
 */
export const HISTORY_MAX_SYMBOLS = 20;
/** Per-symbol history calls in flight at once */
const HISTORY_CONCURRENCY = 4;

/** Binance writes "" (algo orders) or a zero for a field that does not apply: null to us */
const unlessZero = (v: string | undefined): string | null =>
  v === undefined || v === '' || Number(v) === 0 ? null : v;
/** Binance writes 0 for "no goodTillDate" */
const unlessZeroTime = (v: number | undefined): number | null => (v ? v : null);
const isNotFound = (err: unknown): boolean =>
  err instanceof ExchangeApiError && (err.code === ORDER_DOES_NOT_EXIST || err.code === UNKNOWN_ORDER);

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

/** A client order id of our own: prefix + time + randomness, well inside Binance's 36 characters */
export function newClientOrderId(now = systemClock.now().getTime()): string {
  return `kst-${now.toString(36)}-${randomBytes(6).toString('hex')}`;
}

function toOrder(r: WireOrder): Order {
  return {
    orderId: r.orderId,
    clientOrderId: r.clientOrderId,
    kind: 'order',
    symbol: r.symbol,
    side: r.side,
    type: r.type,
    status: r.status,
    price: r.price,
    // Absent only while nothing was executed (the schema checks it)
    averagePrice: r.avgPrice ?? '0',
    quantity: r.origQty,
    executedQuantity: r.executedQty,
    timeInForce: r.timeInForce,
    reduceOnly: r.reduceOnly,
    positionSide: r.positionSide,
    triggerPrice: r.stopPrice,
    workingType: null,
    closePosition: false,
    activationPrice: null,
    callbackRate: null,
    triggeredOrderId: null,
    goodTillDate: unlessZeroTime(r.goodTillDate),
    updatedAt: r.updateTime,
  };
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

/** A conditional order as /fapi/v1/algoOrder writes it. Its fills belong to the order it placed when it fired */
function toConditionalOrder(r: WireAlgoOrder): Order {
  return {
    orderId: r.algoId,
    clientOrderId: r.clientAlgoId,
    kind: 'conditional',
    symbol: r.symbol,
    side: r.side,
    type: r.orderType,
    status: r.algoStatus,
    price: r.price,
    // The fill price of the order it placed; nothing filled (or not fired yet, then absent) is 0
    averagePrice: unlessZero(r.actualPrice) ?? '0',
    quantity: r.quantity,
    executedQuantity: '0',
    timeInForce: r.timeInForce,
    reduceOnly: r.reduceOnly,
    positionSide: r.positionSide,
    triggerPrice: r.triggerPrice,
    workingType: r.workingType,
    closePosition: r.closePosition,
    activationPrice: unlessZero(r.activatePrice),
    callbackRate: unlessZero(r.callbackRate),
    triggeredOrderId: unlessZero(r.actualOrderId),
    goodTillDate: unlessZeroTime(r.goodTillDate),
    updatedAt: r.updateTime,
  };
}

/** What Binance would refuse anyway, said in our terms before a request is spent on it */
function checkNewOrder(order: NewOrder): void {
  const bad = (message: string) => new ExchangeApiError(400, -1102, message);
  const limitPriced = order.type === 'LIMIT' || order.type === 'STOP' || order.type === 'TAKE_PROFIT';
  if (limitPriced && order.price === undefined) throw bad(`A ${order.type} order needs a price`);
  if (!limitPriced && order.price !== undefined) throw bad(`A ${order.type} order takes no price`);
  if (order.closePosition && order.type !== 'STOP_MARKET' && order.type !== 'TAKE_PROFIT_MARKET') {
    throw bad('closePosition is only for STOP_MARKET and TAKE_PROFIT_MARKET orders');
  }
  if (order.closePosition && order.quantity !== undefined) throw bad('closePosition takes no quantity');
  if (!order.closePosition && order.quantity === undefined) throw bad('quantity is required');
  const triggered = isConditionalType(order.type) && order.type !== 'TRAILING_STOP_MARKET';
  if (triggered && order.triggerPrice === undefined) throw bad(`A ${order.type} order needs a triggerPrice`);
  if (!triggered && order.triggerPrice !== undefined)
    throw bad(`A ${order.type} order takes no triggerPrice`);
  if (order.timeInForce === 'GTD' && (order.type !== 'LIMIT' || order.goodTillDate === undefined)) {
    throw bad('timeInForce GTD is for LIMIT orders, with a goodTillDate');
  }
  if (order.timeInForce !== 'GTD' && order.goodTillDate !== undefined) {
    throw bad('goodTillDate is only for timeInForce GTD');
  }
  if (order.type === 'TRAILING_STOP_MARKET' && order.callbackRate === undefined) {
    throw bad('A TRAILING_STOP_MARKET order needs a callbackRate');
  }
}

/** Parameters of POST /fapi/v1/algoOrder for a conditional order (its client id is added by the caller) */
function conditionalParams(order: NewOrder) {
  const limitPriced = order.type === 'STOP' || order.type === 'TAKE_PROFIT';
  return {
    algoType: 'CONDITIONAL',
    symbol: order.symbol,
    side: order.side,
    type: order.type,
    positionSide: order.positionSide,
    quantity: order.quantity,
    price: limitPriced ? order.price : undefined,
    timeInForce: limitPriced ? (order.timeInForce ?? 'GTC') : undefined,
    triggerPrice: order.triggerPrice,
    workingType: order.workingType,
    closePosition: order.closePosition ? 'true' : undefined,
    reduceOnly: order.reduceOnly ? 'true' : undefined,
    priceProtect: order.priceProtect ? 'true' : undefined,
    activatePrice: order.activationPrice,
    callbackRate: order.callbackRate,
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

/** The Binance USDⓈ-M futures adapter over the hand-written fapi client */
export class BinanceUsdmAdapter implements ExchangeAdapter {
  readonly client: BinanceClient;
  readonly capabilities: ExchangeCapabilities;
  readonly streams?: BinanceStreams;

  /** `wsUrl` (stream base, routed paths below it) enables the live streams */
  constructor(options: BinanceClientOptions & { wsUrl?: string; streams?: BinanceStreamOptions }) {
    this.client = new BinanceClient(options);
    if (options.wsUrl)
      this.streams = new BinanceStreams(
        this.client,
        options.wsUrl,
        options.streams ?? {},
        options.clock ?? systemClock,
      );
    this.capabilities = {
      hedgeMode: true,
      keyPermissions: options.walletUrl !== undefined,
      orderTypes: ORDER_TYPES,
      timeInForce: TimeInForceSchema.options,
      liveStreams: this.streams !== undefined,
    };
  }

  get clockOffsetMs(): number {
    return this.client.clockOffsetMs;
  }

  syncTime(): Promise<number> {
    return this.client.syncTime();
  }

  async ping(): Promise<void> {
    await this.client.get('/fapi/v1/ping', IgnoredAnswer);
  }

  async ticker(symbol: string): Promise<Ticker> {
    const r = await this.client.get('/fapi/v1/ticker/24hr', Ticker24hSchema, { symbol });
    return {
      symbol: r.symbol,
      lastPrice: r.lastPrice,
      priceChange: r.priceChange,
      priceChangePercent: r.priceChangePercent,
      highPrice: r.highPrice,
      lowPrice: r.lowPrice,
      volume: r.volume,
      quoteVolume: r.quoteVolume,
      openTime: r.openTime,
      closeTime: r.closeTime,
    };
  }

  async klines(
    symbol: string,
    interval: string,
    limit: number,
    range: { startTime?: number; endTime?: number } = {},
  ): Promise<Kline[]> {
    const rows = await this.client.get('/fapi/v1/klines', KlinesSchema, {
      symbol,
      interval,
      limit,
      ...(range.startTime === undefined ? {} : { startTime: range.startTime }),
      ...(range.endTime === undefined ? {} : { endTime: range.endTime }),
    });
    return rows.map(([openTime, open, high, low, close, volume, closeTime, quoteVolume, trades]) => ({
      openTime,
      open,
      high,
      low,
      close,
      volume,
      closeTime,
      quoteVolume,
      trades,
    }));
  }

  async fundingRateHistory(
    symbol: string,
    range: { startTime: number; endTime: number; limit: number },
  ): Promise<FundingRate[]> {
    const rows = await this.client.get('/fapi/v1/fundingRate', FundingRatesSchema, { symbol, ...range });
    return rows.map((r) => ({ symbol: r.symbol, fundingTime: r.fundingTime, fundingRate: r.fundingRate }));
  }

  async account(keys: ExchangeKeys): Promise<AccountSnapshot> {
    const r = await this.client.signed('GET', '/fapi/v3/account', keys, AccountSchema);
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
  async keyPermissions(keys: ExchangeKeys): Promise<KeyPermissions> {
    if (this.client.walletUrl) {
      const path = '/sapi/v1/account/apiRestrictions';
      const r = await this.client.signed('GET', path, keys, ApiRestrictionsSchema, {}, true);
      return {
        canRead: r.enableReading,
        canTradeFutures: r.enableFutures,
        canWithdraw: r.enableWithdrawals,
        ipRestricted: r.ipRestrict,
      };
    }
    const c = await this.client.signed('GET', '/fapi/v1/accountConfig', keys, AccountConfigSchema);
    return { canRead: true, canTradeFutures: c.canTrade, canWithdraw: c.canWithdraw, ipRestricted: false };
  }

  async positions(keys: ExchangeKeys, symbol?: string): Promise<Position[]> {
    const rows = await this.client.signed('GET', '/fapi/v3/positionRisk', keys, PositionRiskSchema, {
      symbol,
    });
    return rows.map(toPosition);
  }

  async openOrders(keys: ExchangeKeys, symbol?: string): Promise<Order[]> {
    const [orders, conditional] = await Promise.all([
      this.client.signed('GET', '/fapi/v1/openOrders', keys, OrdersSchema, { symbol }),
      this.client.signed('GET', '/fapi/v1/openAlgoOrders', keys, AlgoOrdersSchema, { symbol }),
    ]);
    return [...orders.map(toOrder), ...conditional.map(toConditionalOrder)];
  }

  async findOrder(
    keys: ExchangeKeys,
    symbol: string,
    clientOrderId: string,
    kind: OrderKind = 'order',
  ): Promise<Order | undefined> {
    try {
      if (kind === 'conditional') {
        const r = await this.client.signed('GET', '/fapi/v1/algoOrder', keys, AlgoOrderSchema, {
          clientAlgoId: clientOrderId,
        });
        return toConditionalOrder(r);
      }
      const r = await this.client.signed('GET', '/fapi/v1/order', keys, OrderSchema, {
        symbol,
        origClientOrderId: clientOrderId,
      });
      return toOrder(r);
    } catch (err) {
      if (err instanceof ExchangeApiError && err.code === ORDER_DOES_NOT_EXIST) return undefined;
      throw err;
    }
  }

  /**
   * Sends the order once: plain types to /fapi/v1/order, conditional types to /fapi/v1/algoOrder (Binance refuses
   * them on /fapi/v1/order since 2025-12-09). When the answer is lost (5xx, timeout, reset) the order may exist:
   * it is looked up by its client order id before anything else, and the caller gets the order, a clear "not
   * placed" error, or OrderStatusUnknownError when even the lookup fails. An accepted order whose answer cannot
   * be read is looked up the same way. Nothing here re-sends the POST.
   */
  async placeOrder(keys: ExchangeKeys, order: NewOrder): Promise<Order> {
    const clientOrderId = order.clientOrderId ?? newClientOrderId(this.client.now());
    if (!CLIENT_ID.test(clientOrderId)) {
      throw new ExchangeApiError(
        400,
        -1100,
        'clientOrderId must be 1-36 characters of A-Z a-z 0-9 . : / _ -',
      );
    }
    checkNewOrder(order);
    const conditional = isConditionalType(order.type);
    const kind: OrderKind = conditional ? 'conditional' : 'order';
    const send = conditional
      ? async () =>
          toConditionalOrder(
            await this.client.signed('POST', '/fapi/v1/algoOrder', keys, AlgoOrderSchema, {
              ...conditionalParams(order),
              clientAlgoId: clientOrderId,
            }),
          )
      : async () =>
          toOrder(
            await this.client.signed('POST', '/fapi/v1/order', keys, OrderSchema, {
              symbol: order.symbol,
              side: order.side,
              type: order.type,
              quantity: order.quantity,
              price: order.type === 'LIMIT' ? order.price : undefined,
              timeInForce: order.type === 'LIMIT' ? (order.timeInForce ?? 'GTC') : undefined,
              reduceOnly: order.reduceOnly ? 'true' : undefined,
              positionSide: order.positionSide,
              goodTillDate: order.timeInForce === 'GTD' ? order.goodTillDate : undefined,
              newClientOrderId: clientOrderId,
              newOrderRespType: 'RESULT',
            }),
          );
    try {
      return await send();
    } catch (err) {
      // Accepted (HTTP 200) but unreadable: the order exists, only its state is unknown
      const unreadable = err instanceof ExchangeResponseError;
      const lost = err instanceof ExchangeUnavailableError && err.maybeExecuted;
      if (!unreadable && !lost) throw err;
      let found: Order | undefined;
      try {
        found = await this.findOrder(keys, order.symbol, clientOrderId, kind);
      } catch (lookupError) {
        throw new OrderStatusUnknownError(
          clientOrderId,
          lookupError instanceof Error ? lookupError : new Error(String(lookupError)),
        );
      }
      if (found) return found;
      if (unreadable) throw new OrderStatusUnknownError(clientOrderId, err);
      throw new LostOrderNotFoundError(
        clientOrderId,
        `${err.message}; order ${clientOrderId} was not placed (the exchange has no order with that id)`,
      );
    }
  }

  async cancelOrder(keys: ExchangeKeys, symbol: string, ref: OrderRef): Promise<Order> {
    if (!ref.orderId && !ref.clientOrderId) {
      throw new ExchangeApiError(400, -1102, 'Either an order id or a client order id is needed to cancel');
    }
    if (ref.kind === 'conditional') return this.#cancelConditional(keys, ref);
    try {
      const r = await this.client.signed('DELETE', '/fapi/v1/order', keys, OrderSchema, {
        symbol,
        orderId: ref.orderId,
        origClientOrderId: ref.orderId ? undefined : ref.clientOrderId,
      });
      return toOrder(r);
    } catch (err) {
      // Kind unknown: an id the order book does not know may be a conditional order's
      if (ref.kind === undefined && isNotFound(err)) {
        return this.#cancelConditional(keys, ref).catch((second: unknown) => {
          throw isNotFound(second) ? err : second;
        });
      }
      throw err;
    }
  }

  /** Binance answers a conditional cancel with ids only: the order is read back for the caller */
  async #cancelConditional(keys: ExchangeKeys, ref: OrderRef): Promise<Order> {
    const id = ref.orderId ? { algoId: ref.orderId } : { clientAlgoId: ref.clientOrderId };
    const r = await this.client.signed('DELETE', '/fapi/v1/algoOrder', keys, CanceledAlgoOrderSchema, id);
    const after = await this.client.signed('GET', '/fapi/v1/algoOrder', keys, AlgoOrderSchema, {
      algoId: r.algoId,
    });
    return toConditionalOrder(after);
  }

  async orderHistory(keys: ExchangeKeys, symbol: string | undefined, limit: number): Promise<Order[]> {
    const symbols = symbol ? [symbol] : await this.#activeSymbols(keys);
    const perSymbol = await mapLimited(symbols, HISTORY_CONCURRENCY, async (s) => {
      const [orders, conditional] = await Promise.all([
        this.client.signed('GET', '/fapi/v1/allOrders', keys, OrdersSchema, { symbol: s, limit }),
        this.client.signed('GET', '/fapi/v1/allAlgoOrders', keys, AlgoOrdersSchema, { symbol: s, limit }),
      ]);
      // Binance lists oldest first: reversed, so the stable sort keeps same-millisecond orders newest first
      return [...orders.map(toOrder).reverse(), ...conditional.map(toConditionalOrder).reverse()];
    });
    return perSymbol.flat().sort(newestFirst).slice(0, limit);
  }

  async trades(keys: ExchangeKeys, symbol: string | undefined, limit: number): Promise<Trade[]> {
    const symbols = symbol ? [symbol] : await this.#activeSymbols(keys);
    const perSymbol = await mapLimited(symbols, HISTORY_CONCURRENCY, async (s) => {
      const rows = await this.client.signed('GET', '/fapi/v1/userTrades', keys, UserTradesSchema, {
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

  async tradesFrom(keys: ExchangeKeys, symbol: string, fromId: string, limit: number): Promise<Trade[]> {
    const rows = await this.client.signed('GET', '/fapi/v1/userTrades', keys, UserTradesSchema, {
      symbol,
      fromId,
      limit,
    });
    return rows.map(toTrade);
  }

  async tradesSince(keys: ExchangeKeys, symbol: string, startTime: number, limit: number): Promise<Trade[]> {
    const rows = await this.client.signed('GET', '/fapi/v1/userTrades', keys, UserTradesSchema, {
      symbol,
      startTime,
      limit,
    });
    return rows.map(toTrade);
  }

  async ordersFrom(
    keys: ExchangeKeys,
    symbol: string,
    orderId: string,
    limit: number,
  ): Promise<PlacedOrder[]> {
    const rows = await this.client.signed('GET', '/fapi/v1/allOrders', keys, PlacedOrdersSchema, {
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
  async #activeSymbols(keys: ExchangeKeys): Promise<string[]> {
    const [income, account] = await Promise.all([
      this.client.signed('GET', '/fapi/v1/income', keys, IncomeSchema, { limit: 1000 }),
      this.client.signed('GET', '/fapi/v3/account', keys, AccountSchema),
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

  /** Only the asked symbol of exchangeInfo is read in full: another symbol's oddity does not fail this one */
  async symbolInfo(symbol: string): Promise<SymbolInfo | undefined> {
    const source = 'GET /fapi/v1/exchangeInfo';
    const info = await this.client.get('/fapi/v1/exchangeInfo', ExchangeInfoSchema);
    const index = info.symbols.findIndex((x) => x.symbol === symbol);
    if (index < 0) return undefined;
    const at = ['symbols', index];
    const s = readAnswer(source, ExchangeSymbolSchema, info.symbols[index], at);
    const filter = <S extends z.ZodType>(type: string, schema: S): z.output<S> => {
      const i = s.filters.findIndex((f) => f.filterType === type);
      if (i < 0) {
        throw new ExchangeResponseError(source, [
          { path: `symbols[${index}].filters`, message: `missing (expected a ${type} filter)` },
        ]);
      }
      return readAnswer(source, schema, s.filters[i], [...at, 'filters', i]);
    };
    const price = filter('PRICE_FILTER', PriceFilterSchema);
    const lot = filter('LOT_SIZE', LotSizeFilterSchema);
    const notional = filter('MIN_NOTIONAL', MinNotionalFilterSchema);
    return {
      symbol: s.symbol,
      status: s.status,
      baseAsset: s.baseAsset,
      quoteAsset: s.quoteAsset,
      pricePrecision: s.pricePrecision,
      quantityPrecision: s.quantityPrecision,
      tickSize: price.tickSize,
      stepSize: lot.stepSize,
      minQuantity: lot.minQty,
      maxQuantity: lot.maxQty,
      minNotional: notional.notional,
      orderTypes: s.orderTypes,
    };
  }

  async income(
    keys: ExchangeKeys,
    range: { startTime?: number; endTime?: number; limit: number },
  ): Promise<IncomeEntry[]> {
    const rows = await this.client.signed('GET', '/fapi/v1/income', keys, IncomeSchema, range);
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

  async leverageBrackets(keys: ExchangeKeys, symbol: string): Promise<LeverageBracketTier[] | undefined> {
    const entries = await this.client.signed(
      'GET',
      '/fapi/v1/leverageBracket',
      keys,
      LeverageBracketsSchema,
      {
        symbol,
      },
    );
    return entries.find((e) => e.symbol === symbol)?.brackets;
  }

  async setLeverage(keys: ExchangeKeys, symbol: string, leverage: number) {
    const r = await this.client.signed('POST', '/fapi/v1/leverage', keys, LeverageSchema, {
      symbol,
      leverage,
    });
    return { symbol: r.symbol, leverage: r.leverage };
  }

  async countdownCancelAll(keys: ExchangeKeys, symbol: string, countdownTimeMs: number): Promise<void> {
    await this.client.signed('POST', '/fapi/v1/countdownCancelAll', keys, CountdownCancelAllSchema, {
      symbol,
      countdownTime: countdownTimeMs,
    });
  }
}
