import { ORDER_TYPES, TimeInForceSchema } from '@kestrel/contracts';
import type { z } from 'zod';
import { systemClock } from '../../lib/clock';
import * as reads from './binance-account-reads';
import { BinanceClient, type BinanceClientOptions } from './binance-client';
import * as orders from './binance-orders';
import {
  AggTradesSchema,
  DepthSchema,
  ExchangeInfoSchema,
  ExchangeSymbolSchema,
  FundingRatesSchema,
  IgnoredAnswer,
  KlinesSchema,
  LotSizeFilterSchema,
  MinNotionalFilterSchema,
  PriceFilterSchema,
  readAnswer,
  Ticker24hSchema,
  TickerPriceSchema,
} from './binance-schemas';
import type { BinanceStreamOptions } from './binance-stream-options';
import { BinanceStreams } from './binance-streams';
import {
  type AccountSnapshot,
  type AggregateTrade,
  type Decimal,
  type ExchangeAdapter,
  type ExchangeCapabilities,
  type ExchangeKeys,
  ExchangeResponseError,
  type FundingRate,
  type IncomeEntry,
  type KeyPermissions,
  type Kline,
  type LeverageBracketTier,
  type NewOrder,
  type Order,
  type OrderBookSnapshot,
  type OrderKind,
  type OrderRef,
  type PlacedOrder,
  type Position,
  type SymbolInfo,
  type Ticker,
  type Trade,
} from './exchange-adapter';

export { HISTORY_MAX_SYMBOLS } from './binance-account-reads';
export { newClientOrderId } from './binance-orders';

/**
 * The Binance USDⓈ-M futures adapter over the hand-written fapi client: market data here, orders in
 * `binance-orders.ts`, account reads in `binance-account-reads.ts`
 */
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

  async lastPrice(symbol: string): Promise<Decimal> {
    return (await this.client.get('/fapi/v2/ticker/price', TickerPriceSchema, { symbol })).price;
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

  async depth(symbol: string, limit: number): Promise<OrderBookSnapshot> {
    const r = await this.client.get('/fapi/v1/depth', DepthSchema, { symbol, limit });
    return { lastUpdateId: r.lastUpdateId, bids: r.bids, asks: r.asks, time: r.E };
  }

  async aggTrades(symbol: string, limit: number): Promise<AggregateTrade[]> {
    const rows = await this.client.get('/fapi/v1/aggTrades', AggTradesSchema, { symbol, limit });
    return rows.map((t) => ({ id: t.a, price: t.p, quantity: t.q, buyerMaker: t.m, time: t.T }));
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
    return reads.account(this.client, keys);
  }

  /**
   * Binance reports key flags on the wallet host (/sapi/v1/account/apiRestrictions). Testnet has no wallet host:
   * there the futures accountConfig's canWithdraw is the answer.
   */
  async keyPermissions(keys: ExchangeKeys): Promise<KeyPermissions> {
    return reads.keyPermissions(this.client, keys);
  }

  async positions(keys: ExchangeKeys, symbol?: string): Promise<Position[]> {
    return reads.positions(this.client, keys, symbol);
  }

  async hedgeMode(keys: ExchangeKeys): Promise<boolean> {
    return reads.hedgeMode(this.client, keys);
  }

  async openOrders(keys: ExchangeKeys, symbol?: string): Promise<Order[]> {
    return orders.openOrders(this.client, keys, symbol);
  }

  async findOrder(
    keys: ExchangeKeys,
    symbol: string,
    clientOrderId: string,
    kind: OrderKind = 'order',
  ): Promise<Order | undefined> {
    return orders.findOrder(this.client, keys, symbol, clientOrderId, kind);
  }

  /**
   * Sends the order once: plain types to /fapi/v1/order, conditional types to /fapi/v1/algoOrder (Binance refuses
   * them on /fapi/v1/order since 2025-12-09). When the answer is lost (5xx, timeout, reset) the order may exist:
   * it is looked up by its client order id before anything else, and the caller gets the order, a clear "not
   * placed" error, or OrderStatusUnknownError when even the lookup fails. An accepted order whose answer cannot
   * be read is looked up the same way. Nothing here re-sends the POST.
   */
  async placeOrder(keys: ExchangeKeys, order: NewOrder): Promise<Order> {
    return orders.placeOrder(this.client, keys, order, (symbol, clientOrderId, kind) =>
      this.findOrder(keys, symbol, clientOrderId, kind),
    );
  }

  async cancelOrder(keys: ExchangeKeys, symbol: string, ref: OrderRef): Promise<Order> {
    return orders.cancelOrder(this.client, keys, symbol, ref);
  }

  async orderHistory(keys: ExchangeKeys, symbol: string | undefined, limit: number): Promise<Order[]> {
    return reads.orderHistory(this.client, keys, symbol, limit);
  }

  async trades(keys: ExchangeKeys, symbol: string | undefined, limit: number): Promise<Trade[]> {
    return reads.trades(this.client, keys, symbol, limit);
  }

  async tradesFrom(keys: ExchangeKeys, symbol: string, fromId: string, limit: number): Promise<Trade[]> {
    return reads.tradesFrom(this.client, keys, symbol, fromId, limit);
  }

  async tradesSince(keys: ExchangeKeys, symbol: string, startTime: number, limit: number): Promise<Trade[]> {
    return reads.tradesSince(this.client, keys, symbol, startTime, limit);
  }

  async ordersFrom(
    keys: ExchangeKeys,
    symbol: string,
    orderId: string,
    limit: number,
  ): Promise<PlacedOrder[]> {
    return reads.ordersFrom(this.client, keys, symbol, orderId, limit);
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
    // Every USDⓈ-M perpetual lists MARKET_LOT_SIZE; without it a market order is held to LOT_SIZE
    const marketLot = s.filters.some((f) => f.filterType === 'MARKET_LOT_SIZE')
      ? filter('MARKET_LOT_SIZE', LotSizeFilterSchema)
      : lot;
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
      marketMaxQuantity: marketLot.maxQty,
      minNotional: notional.notional,
      orderTypes: s.orderTypes,
    };
  }

  async income(
    keys: ExchangeKeys,
    range: { startTime?: number; endTime?: number; limit: number },
  ): Promise<IncomeEntry[]> {
    return reads.income(this.client, keys, range);
  }

  async leverageBrackets(keys: ExchangeKeys, symbol: string): Promise<LeverageBracketTier[] | undefined> {
    return reads.leverageBrackets(this.client, keys, symbol);
  }

  async symbolConfig(keys: ExchangeKeys, symbol: string) {
    return reads.symbolConfig(this.client, keys, symbol);
  }

  async setMarginType(keys: ExchangeKeys, symbol: string, marginType: 'cross' | 'isolated') {
    return reads.setMarginType(this.client, keys, symbol, marginType);
  }

  async changePositionMargin(
    keys: ExchangeKeys,
    change: Parameters<ExchangeAdapter['changePositionMargin']>[1],
  ) {
    return reads.changePositionMargin(this.client, keys, change);
  }

  async setLeverage(keys: ExchangeKeys, symbol: string, leverage: number) {
    return reads.setLeverage(this.client, keys, symbol, leverage);
  }

  async countdownCancelAll(keys: ExchangeKeys, symbol: string, countdownTimeMs: number): Promise<void> {
    return orders.countdownCancelAll(this.client, keys, symbol, countdownTimeMs);
  }
}
