import { randomBytes } from 'node:crypto';
import { BinanceClient, type BinanceClientOptions } from './binance-client';
import type { BinanceStreamOptions } from './binance-stream-options';
import { BinanceStreams } from './binance-streams';
import {
  type AccountSnapshot,
  CONDITIONAL_ORDER_TYPES,
  type ExchangeAdapter,
  ExchangeApiError,
  type ExchangeCapabilities,
  type ExchangeKeys,
  ExchangeUnavailableError,
  type FundingRate,
  type IncomeEntry,
  isConditionalType,
  type KeyPermissions,
  type Kline,
  type LeverageBracketTier,
  type NewOrder,
  type Order,
  type OrderKind,
  type OrderRef,
  type OrderStatus,
  OrderStatusUnknownError,
  type Position,
  type PositionSide,
  type SymbolInfo,
  type Ticker,
  type Trade,
  type WorkingType,
} from './exchange-adapter';

type Raw = Record<string, unknown>;

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

const str = (v: unknown): string => (v === undefined || v === null ? '0' : String(v));
const num = (v: unknown): number => Number(v ?? 0);
/** Binance writes "" (algo orders) or "0" for a field that does not apply */
const optional = (v: unknown): string | null =>
  v === undefined || v === null || v === '' || Number(v) === 0 ? null : String(v);
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
export function newClientOrderId(now = Date.now()): string {
  return `kst-${now.toString(36)}-${randomBytes(6).toString('hex')}`;
}

function toOrder(r: Raw): Order {
  return {
    orderId: str(r.orderId),
    clientOrderId: str(r.clientOrderId),
    kind: 'order',
    symbol: str(r.symbol),
    side: r.side === 'SELL' ? 'SELL' : 'BUY',
    type: str(r.type),
    status: str(r.status) as OrderStatus,
    price: str(r.price),
    averagePrice: str(r.avgPrice),
    quantity: str(r.origQty),
    executedQuantity: str(r.executedQty),
    timeInForce: str(r.timeInForce),
    reduceOnly: r.reduceOnly === true,
    positionSide: (r.positionSide as PositionSide | undefined) ?? 'BOTH',
    triggerPrice: str(r.stopPrice),
    workingType: null,
    closePosition: false,
    activationPrice: null,
    callbackRate: null,
    triggeredOrderId: null,
    goodTillDate: num(r.goodTillDate) || null,
    updatedAt: num(r.updateTime ?? r.time),
  };
}

/** A conditional order as /fapi/v1/algoOrder writes it. Its fills belong to the order it placed when it fired */
function toConditionalOrder(r: Raw): Order {
  return {
    orderId: str(r.algoId),
    clientOrderId: str(r.clientAlgoId),
    kind: 'conditional',
    symbol: str(r.symbol),
    side: r.side === 'SELL' ? 'SELL' : 'BUY',
    type: str(r.orderType),
    status: str(r.algoStatus) as OrderStatus,
    price: str(r.price),
    averagePrice: str(optional(r.actualPrice)),
    quantity: str(r.quantity),
    executedQuantity: '0',
    timeInForce: str(r.timeInForce),
    reduceOnly: r.reduceOnly === true,
    positionSide: (r.positionSide as PositionSide | undefined) ?? 'BOTH',
    triggerPrice: str(r.triggerPrice),
    workingType: r.workingType === 'MARK_PRICE' ? 'MARK_PRICE' : ('CONTRACT_PRICE' as WorkingType),
    closePosition: r.closePosition === true,
    activationPrice: optional(r.activatePrice),
    callbackRate: optional(r.callbackRate),
    triggeredOrderId: optional(r.actualOrderId),
    goodTillDate: num(r.goodTillDate) || null,
    updatedAt: num(r.updateTime ?? r.createTime),
  };
}

function toTrade(t: Raw): Trade {
  return {
    id: str(t.id),
    orderId: str(t.orderId),
    symbol: str(t.symbol),
    side: t.side === 'SELL' ? 'SELL' : 'BUY',
    positionSide: (t.positionSide as PositionSide | undefined) ?? 'BOTH',
    price: str(t.price),
    quantity: str(t.qty),
    quoteQuantity: str(t.quoteQty),
    realizedPnl: str(t.realizedPnl),
    commission: str(t.commission),
    commissionAsset: str(t.commissionAsset),
    maker: t.maker === true,
    time: num(t.time),
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

function toPosition(r: Raw): Position {
  return {
    symbol: str(r.symbol),
    positionSide: (r.positionSide as PositionSide | undefined) ?? 'BOTH',
    amount: str(r.positionAmt),
    entryPrice: str(r.entryPrice),
    markPrice: str(r.markPrice),
    unrealizedPnl: str(r.unRealizedProfit ?? r.unrealizedProfit),
    liquidationPrice: str(r.liquidationPrice),
    notional: str(r.notional),
    initialMargin: str(r.initialMargin),
    maintenanceMargin: str(r.maintMargin),
    updatedAt: num(r.updateTime),
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
    if (options.wsUrl) this.streams = new BinanceStreams(this.client, options.wsUrl, options.streams);
    this.capabilities = {
      hedgeMode: true,
      keyPermissions: options.walletUrl !== undefined,
      orderTypes: ['LIMIT', 'MARKET', ...CONDITIONAL_ORDER_TYPES],
      timeInForce: ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'],
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
    await this.client.get('/fapi/v1/ping');
  }

  async ticker(symbol: string): Promise<Ticker> {
    const r = (await this.client.get('/fapi/v1/ticker/24hr', { symbol })) as Raw;
    return {
      symbol: str(r.symbol),
      lastPrice: str(r.lastPrice),
      priceChange: str(r.priceChange),
      priceChangePercent: str(r.priceChangePercent),
      highPrice: str(r.highPrice),
      lowPrice: str(r.lowPrice),
      volume: str(r.volume),
      quoteVolume: str(r.quoteVolume),
      openTime: num(r.openTime),
      closeTime: num(r.closeTime),
    };
  }

  async klines(
    symbol: string,
    interval: string,
    limit: number,
    range: { startTime?: number; endTime?: number } = {},
  ): Promise<Kline[]> {
    const rows = (await this.client.get('/fapi/v1/klines', {
      symbol,
      interval,
      limit,
      ...(range.startTime === undefined ? {} : { startTime: range.startTime }),
      ...(range.endTime === undefined ? {} : { endTime: range.endTime }),
    })) as unknown[][];
    return rows.map((k) => ({
      openTime: num(k[0]),
      open: str(k[1]),
      high: str(k[2]),
      low: str(k[3]),
      close: str(k[4]),
      volume: str(k[5]),
      closeTime: num(k[6]),
      quoteVolume: str(k[7]),
      trades: num(k[8]),
    }));
  }

  async fundingRateHistory(
    symbol: string,
    range: { startTime: number; endTime: number; limit: number },
  ): Promise<FundingRate[]> {
    const rows = (await this.client.get('/fapi/v1/fundingRate', { symbol, ...range })) as Raw[];
    return rows.map((r) => ({
      symbol: str(r.symbol),
      fundingTime: num(r.fundingTime),
      fundingRate: str(r.fundingRate),
    }));
  }

  async account(keys: ExchangeKeys): Promise<AccountSnapshot> {
    const r = (await this.client.signed('GET', '/fapi/v3/account', keys)) as Raw;
    const assets = (r.assets as Raw[] | undefined) ?? [];
    const positions = (r.positions as Raw[] | undefined) ?? [];
    return {
      totalWalletBalance: str(r.totalWalletBalance),
      totalUnrealizedPnl: str(r.totalUnrealizedProfit),
      totalMarginBalance: str(r.totalMarginBalance),
      totalInitialMargin: str(r.totalInitialMargin),
      totalMaintMargin: str(r.totalMaintMargin),
      availableBalance: str(r.availableBalance),
      assets: assets.map((a) => ({
        asset: str(a.asset),
        walletBalance: str(a.walletBalance),
        unrealizedPnl: str(a.unrealizedProfit),
        marginBalance: str(a.marginBalance),
        availableBalance: str(a.availableBalance),
      })),
      positions: positions.map(toPosition),
    };
  }

  /**
   * Binance reports key flags on the wallet host (/sapi/v1/account/apiRestrictions). Testnet has no wallet host:
   * there the futures accountConfig's canWithdraw is the answer.
   */
  async keyPermissions(keys: ExchangeKeys): Promise<KeyPermissions> {
    if (this.client.walletUrl) {
      const r = (await this.client.signed('GET', '/sapi/v1/account/apiRestrictions', keys, {}, true)) as Raw;
      return {
        canRead: r.enableReading === true,
        canTradeFutures: r.enableFutures === true,
        canWithdraw: r.enableWithdrawals === true,
        ipRestricted: r.ipRestrict === true,
      };
    }
    const c = (await this.client.signed('GET', '/fapi/v1/accountConfig', keys)) as Raw;
    return {
      canRead: true,
      canTradeFutures: c.canTrade === true,
      canWithdraw: c.canWithdraw === true,
      ipRestricted: false,
    };
  }

  async positions(keys: ExchangeKeys, symbol?: string): Promise<Position[]> {
    const rows = (await this.client.signed('GET', '/fapi/v3/positionRisk', keys, { symbol })) as Raw[];
    return rows.map(toPosition);
  }

  async openOrders(keys: ExchangeKeys, symbol?: string): Promise<Order[]> {
    const [orders, conditional] = await Promise.all([
      this.client.signed('GET', '/fapi/v1/openOrders', keys, { symbol }) as Promise<Raw[]>,
      this.client.signed('GET', '/fapi/v1/openAlgoOrders', keys, { symbol }) as Promise<Raw[]>,
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
        const r = (await this.client.signed('GET', '/fapi/v1/algoOrder', keys, {
          clientAlgoId: clientOrderId,
        })) as Raw;
        return toConditionalOrder(r);
      }
      const r = (await this.client.signed('GET', '/fapi/v1/order', keys, {
        symbol,
        origClientOrderId: clientOrderId,
      })) as Raw;
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
   * placed" error, or OrderStatusUnknownError when even the lookup fails. Nothing here re-sends the POST.
   */
  async placeOrder(keys: ExchangeKeys, order: NewOrder): Promise<Order> {
    const clientOrderId = order.clientOrderId ?? newClientOrderId();
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
            (await this.client.signed('POST', '/fapi/v1/algoOrder', keys, {
              ...conditionalParams(order),
              clientAlgoId: clientOrderId,
            })) as Raw,
          )
      : async () =>
          toOrder(
            (await this.client.signed('POST', '/fapi/v1/order', keys, {
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
            })) as Raw,
          );
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof ExchangeUnavailableError) || !err.maybeExecuted) throw err;
      let found: Order | undefined;
      try {
        found = await this.findOrder(keys, order.symbol, clientOrderId, kind);
      } catch (lookupError) {
        throw new OrderStatusUnknownError(clientOrderId, lookupError as Error);
      }
      if (found) return found;
      throw new ExchangeUnavailableError(
        `${err.message}; order ${clientOrderId} was not placed (the exchange has no order with that id)`,
        false,
      );
    }
  }

  async cancelOrder(keys: ExchangeKeys, symbol: string, ref: OrderRef): Promise<Order> {
    if (!ref.orderId && !ref.clientOrderId) {
      throw new ExchangeApiError(400, -1102, 'Either an order id or a client order id is needed to cancel');
    }
    if (ref.kind === 'conditional') return this.#cancelConditional(keys, ref);
    try {
      const r = (await this.client.signed('DELETE', '/fapi/v1/order', keys, {
        symbol,
        orderId: ref.orderId,
        origClientOrderId: ref.orderId ? undefined : ref.clientOrderId,
      })) as Raw;
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
    const r = (await this.client.signed('DELETE', '/fapi/v1/algoOrder', keys, id)) as Raw;
    const after = (await this.client.signed('GET', '/fapi/v1/algoOrder', keys, {
      algoId: str(r.algoId),
    })) as Raw;
    return toConditionalOrder(after);
  }

  async orderHistory(keys: ExchangeKeys, symbol: string | undefined, limit: number): Promise<Order[]> {
    const symbols = symbol ? [symbol] : await this.#activeSymbols(keys);
    const perSymbol = await mapLimited(symbols, HISTORY_CONCURRENCY, async (s) => {
      const [orders, conditional] = await Promise.all([
        this.client.signed('GET', '/fapi/v1/allOrders', keys, { symbol: s, limit }) as Promise<Raw[]>,
        this.client.signed('GET', '/fapi/v1/allAlgoOrders', keys, { symbol: s, limit }) as Promise<Raw[]>,
      ]);
      // Binance lists oldest first: reversed, so the stable sort keeps same-millisecond orders newest first
      return [...orders.map(toOrder).reverse(), ...conditional.map(toConditionalOrder).reverse()];
    });
    return perSymbol.flat().sort(newestFirst).slice(0, limit);
  }

  async trades(keys: ExchangeKeys, symbol: string | undefined, limit: number): Promise<Trade[]> {
    const symbols = symbol ? [symbol] : await this.#activeSymbols(keys);
    const perSymbol = await mapLimited(symbols, HISTORY_CONCURRENCY, async (s) => {
      const rows = (await this.client.signed('GET', '/fapi/v1/userTrades', keys, {
        symbol: s,
        limit,
      })) as Raw[];
      return rows.map(toTrade).reverse();
    });
    return perSymbol
      .flat()
      .sort((a, b) => b.time - a.time)
      .slice(0, limit);
  }

  /**
   * Symbols the account was active in over Binance's default 7-day window (the window allOrders and userTrades
   * answer without a range), most recent first: every fill books commission income, and the v3 account lists the
   * symbols with a position or open orders. Two calls (weight 30 + 5), whatever the number of symbols
   */
  async #activeSymbols(keys: ExchangeKeys): Promise<string[]> {
    const [income, account] = await Promise.all([
      this.client.signed('GET', '/fapi/v1/income', keys, { limit: 1000 }) as Promise<Raw[]>,
      this.client.signed('GET', '/fapi/v3/account', keys) as Promise<Raw>,
    ]);
    const lastSeen = new Map<string, number>();
    for (const p of (account.positions as Raw[] | undefined) ?? []) {
      if (p.symbol) lastSeen.set(String(p.symbol), Number.POSITIVE_INFINITY);
    }
    for (const i of income) {
      if (!i.symbol) continue;
      const s = String(i.symbol);
      lastSeen.set(s, Math.max(lastSeen.get(s) ?? 0, num(i.time)));
    }
    return [...lastSeen.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, HISTORY_MAX_SYMBOLS)
      .map(([s]) => s);
  }

  async symbolInfo(symbol: string): Promise<SymbolInfo | undefined> {
    const info = (await this.client.get('/fapi/v1/exchangeInfo')) as { symbols?: Raw[] };
    const s = info.symbols?.find((x) => x.symbol === symbol);
    if (!s) return undefined;
    const filters = (s.filters as Raw[] | undefined) ?? [];
    const filter = (type: string) => filters.find((f) => f.filterType === type) ?? {};
    return {
      symbol: str(s.symbol),
      status: str(s.status),
      baseAsset: str(s.baseAsset),
      quoteAsset: str(s.quoteAsset),
      pricePrecision: num(s.pricePrecision),
      quantityPrecision: num(s.quantityPrecision),
      tickSize: str(filter('PRICE_FILTER').tickSize),
      stepSize: str(filter('LOT_SIZE').stepSize),
      minQuantity: str(filter('LOT_SIZE').minQty),
      maxQuantity: str(filter('LOT_SIZE').maxQty),
      minNotional: str(filter('MIN_NOTIONAL').notional),
      orderTypes: ((s.orderTypes as unknown[] | undefined) ?? []).map(String),
    };
  }

  async income(
    keys: ExchangeKeys,
    range: { startTime?: number; endTime?: number; limit: number },
  ): Promise<IncomeEntry[]> {
    const rows = (await this.client.signed('GET', '/fapi/v1/income', keys, range)) as Raw[];
    return rows.map((i) => ({
      symbol: str(i.symbol),
      incomeType: str(i.incomeType),
      income: str(i.income),
      asset: str(i.asset),
      time: num(i.time),
    }));
  }

  async leverageBrackets(keys: ExchangeKeys, symbol: string): Promise<LeverageBracketTier[] | undefined> {
    const reply = (await this.client.signed('GET', '/fapi/v1/leverageBracket', keys, { symbol })) as
      | Raw
      | Raw[];
    // Documented as one object for a symbol; Binance (and the simulator) answer an array of one
    const entry = (Array.isArray(reply) ? reply : [reply]).find((e) => e.symbol === symbol);
    if (!entry || !Array.isArray(entry.brackets)) return undefined;
    return (entry.brackets as Raw[]).map((b) => ({
      bracket: num(b.bracket),
      initialLeverage: num(b.initialLeverage),
      notionalFloor: num(b.notionalFloor),
      notionalCap: num(b.notionalCap),
      maintMarginRatio: num(b.maintMarginRatio),
      cum: num(b.cum),
    }));
  }

  async setLeverage(keys: ExchangeKeys, symbol: string, leverage: number) {
    const r = (await this.client.signed('POST', '/fapi/v1/leverage', keys, { symbol, leverage })) as Raw;
    return { symbol: str(r.symbol), leverage: num(r.leverage) };
  }
}
