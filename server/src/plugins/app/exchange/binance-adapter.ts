import { randomBytes } from 'node:crypto';
import { BinanceClient, type BinanceClientOptions } from './binance-client';
import { type BinanceStreamOptions, BinanceStreams } from './binance-streams';
import {
  type AccountSnapshot,
  type ExchangeAdapter,
  ExchangeApiError,
  type ExchangeCapabilities,
  type ExchangeKeys,
  ExchangeUnavailableError,
  type FundingRate,
  type IncomeEntry,
  type KeyPermissions,
  type Kline,
  type NewOrder,
  type Order,
  type OrderStatus,
  OrderStatusUnknownError,
  type Position,
  type PositionSide,
  type SymbolInfo,
  type Ticker,
  type Trade,
} from './exchange-adapter';

type Raw = Record<string, unknown>;

const CLIENT_ID = /^[.A-Za-z0-9:/_-]{1,36}$/;
/** Binance: "Order does not exist." */
const ORDER_DOES_NOT_EXIST = -2013;

const str = (v: unknown): string => (v === undefined || v === null ? '0' : String(v));
const num = (v: unknown): number => Number(v ?? 0);

/** A client order id of our own: prefix + time + randomness, well inside Binance's 36 characters */
export function newClientOrderId(now = Date.now()): string {
  return `kst-${now.toString(36)}-${randomBytes(6).toString('hex')}`;
}

function toOrder(r: Raw): Order {
  return {
    orderId: str(r.orderId),
    clientOrderId: str(r.clientOrderId),
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
    updatedAt: num(r.updateTime ?? r.time),
  };
}

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
      orderTypes: ['LIMIT', 'MARKET'],
      timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
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
    const rows = (await this.client.signed('GET', '/fapi/v1/openOrders', keys, { symbol })) as Raw[];
    return rows.map(toOrder);
  }

  async findOrder(keys: ExchangeKeys, symbol: string, clientOrderId: string): Promise<Order | undefined> {
    try {
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
   * Sends the order once. When the answer is lost (5xx, timeout, reset) the order may exist: it is looked up by
   * its client order id before anything else, and the caller gets the order, a clear "not placed" error, or
   * OrderStatusUnknownError when even the lookup fails. Nothing here re-sends the POST.
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
    if (order.type === 'LIMIT' && order.price === undefined) {
      throw new ExchangeApiError(400, -1102, 'A LIMIT order needs a price');
    }
    const params = {
      symbol: order.symbol,
      side: order.side,
      type: order.type,
      quantity: order.quantity,
      price: order.type === 'LIMIT' ? order.price : undefined,
      timeInForce: order.type === 'LIMIT' ? (order.timeInForce ?? 'GTC') : undefined,
      reduceOnly: order.reduceOnly ? 'true' : undefined,
      positionSide: order.positionSide,
      newClientOrderId: clientOrderId,
      newOrderRespType: 'RESULT',
    };
    try {
      return toOrder((await this.client.signed('POST', '/fapi/v1/order', keys, params)) as Raw);
    } catch (err) {
      if (!(err instanceof ExchangeUnavailableError) || !err.maybeExecuted) throw err;
      let found: Order | undefined;
      try {
        found = await this.findOrder(keys, order.symbol, clientOrderId);
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

  async cancelOrder(
    keys: ExchangeKeys,
    symbol: string,
    ref: { orderId?: string; clientOrderId?: string },
  ): Promise<Order> {
    if (!ref.orderId && !ref.clientOrderId) {
      throw new ExchangeApiError(400, -1102, 'Either an order id or a client order id is needed to cancel');
    }
    const r = (await this.client.signed('DELETE', '/fapi/v1/order', keys, {
      symbol,
      orderId: ref.orderId,
      origClientOrderId: ref.orderId ? undefined : ref.clientOrderId,
    })) as Raw;
    return toOrder(r);
  }

  async orderHistory(keys: ExchangeKeys, symbol: string, limit: number): Promise<Order[]> {
    const rows = (await this.client.signed('GET', '/fapi/v1/allOrders', keys, { symbol, limit })) as Raw[];
    return rows.map(toOrder);
  }

  async trades(keys: ExchangeKeys, symbol: string, limit: number): Promise<Trade[]> {
    const rows = (await this.client.signed('GET', '/fapi/v1/userTrades', keys, { symbol, limit })) as Raw[];
    return rows.map((t) => ({
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
    }));
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

  async setLeverage(keys: ExchangeKeys, symbol: string, leverage: number) {
    const r = (await this.client.signed('POST', '/fapi/v1/leverage', keys, { symbol, leverage })) as Raw;
    return { symbol: str(r.symbol), leverage: num(r.leverage) };
  }
}
