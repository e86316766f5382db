import { errors } from '../common/errors';
import { fixed } from '../common/format';
import type { SymbolSpec } from '../common/symbols';
import { klines, klinesWeight, parseInterval } from '../matching/klines';
import {
  type BookLevel,
  FUNDING_INTERVAL_MS,
  INTEREST_RATE,
  type Market,
  nextFundingTime,
} from '../matching/market';
import { MINUTE_MS } from '../matching/price-feed';
import { aggTradeId, bookUpdateId, TRADES_PER_AGG_TRADE } from '../matching/tape';
import { aggTradesRoute } from './agg-trades';
import { marketParam, marketsParam, type Route, type RouteContext, symbolWeight } from './route';

const DAY_MS = 86_400_000;

function px(spec: SymbolSpec, value: number): string {
  return value.toFixed(spec.pricePrecision);
}

/** One result for `symbol=…`, an array without it: Binance's convention for tickers and premiumIndex */
function oneOrAll<T>(ctx: RouteContext, build: (m: Market) => T): T | T[] {
  const list = marketsParam(ctx).map(build);
  return ctx.params.has('symbol') ? (list[0] as T) : list;
}

function filters(spec: SymbolSpec) {
  return [
    { minPrice: spec.minPrice, maxPrice: spec.maxPrice, filterType: 'PRICE_FILTER', tickSize: spec.tickSize },
    { stepSize: spec.stepSize, filterType: 'LOT_SIZE', maxQty: spec.maxQty, minQty: spec.minQty },
    {
      stepSize: spec.marketStepSize,
      filterType: 'MARKET_LOT_SIZE',
      maxQty: spec.marketMaxQty,
      minQty: spec.marketMinQty,
    },
    { limit: 200, filterType: 'MAX_NUM_ORDERS' },
    { notional: spec.minNotional, filterType: 'MIN_NOTIONAL' },
    {
      multiplierDown: spec.multiplierDown,
      multiplierUp: spec.multiplierUp,
      multiplierDecimal: '4',
      filterType: 'PERCENT_PRICE',
    },
  ];
}

function exchangeInfo(ctx: RouteContext) {
  const limits = ctx.limits;
  const markets = [...ctx.exchange.markets.values()];
  return {
    timezone: 'UTC',
    serverTime: ctx.now,
    futuresType: 'U_MARGINED',
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: limits.weightPerMinute },
      { rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: limits.ordersPerMinute },
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: limits.ordersPer10s },
    ],
    exchangeFilters: [],
    assets: [
      { asset: 'USDT', marginAvailable: true, autoAssetExchange: '-10000' },
      { asset: 'BTC', marginAvailable: true, autoAssetExchange: '-0.10000000' },
      { asset: 'BNB', marginAvailable: true, autoAssetExchange: '-10' },
    ],
    symbols: markets.map(({ spec }) => ({
      symbol: spec.symbol,
      pair: spec.symbol,
      contractType: 'PERPETUAL',
      deliveryDate: 4133404800000,
      onboardDate: spec.onboardDate,
      status: 'TRADING',
      maintMarginPercent: '2.5000',
      requiredMarginPercent: '5.0000',
      baseAsset: spec.baseAsset,
      quoteAsset: spec.quoteAsset,
      marginAsset: spec.marginAsset,
      pricePrecision: spec.pricePrecision,
      quantityPrecision: spec.quantityPrecision,
      baseAssetPrecision: 8,
      quotePrecision: 8,
      underlyingType: 'COIN',
      underlyingSubType: [],
      settlePlan: 0,
      triggerProtect: '0.0500',
      liquidationFee: spec.liquidationFee,
      marketTakeBound: spec.marketTakeBound,
      maxMoveOrderLimit: 10000,
      filters: filters(spec),
      orderTypes: [
        'LIMIT',
        'MARKET',
        'STOP',
        'STOP_MARKET',
        'TAKE_PROFIT',
        'TAKE_PROFIT_MARKET',
        'TRAILING_STOP_MARKET',
      ],
      timeInForce: ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'],
    })),
  };
}

/** The rolling 24 h ticker of one market at `now` (REST ticker/24hr and the @ticker streams) */
export function ticker24h(market: Market, now: number) {
  const spec = market.spec;
  const from = now - DAY_MS;
  const open = market.lastPrice(from);
  const last = market.lastPrice(now);
  let high = Math.max(open, last);
  let low = Math.min(open, last);
  let volume = 0;
  let quote = 0;
  let count = 0;
  for (let t = Math.floor(from / MINUTE_MS) * MINUTE_MS; t <= now; t += MINUTE_MS) {
    const bar = market.feed.bar(t, now);
    if (!bar) continue;
    high = Math.max(high, bar.high);
    low = Math.min(low, bar.low);
    volume += bar.volume;
    quote += bar.quoteVolume;
    count += bar.trades;
  }
  const change = last - open;
  const lastId = aggTradeId(market, now) * TRADES_PER_AGG_TRADE;
  return {
    symbol: spec.symbol,
    priceChange: px(spec, change),
    priceChangePercent: ((change / open) * 100).toFixed(3),
    weightedAvgPrice: volume > 0 ? px(spec, quote / volume) : px(spec, last),
    lastPrice: px(spec, last),
    lastQty: fixed(spec.minQty, spec.quantityPrecision),
    openPrice: px(spec, open),
    highPrice: px(spec, high),
    lowPrice: px(spec, low),
    volume: volume.toFixed(spec.quantityPrecision),
    quoteVolume: quote.toFixed(2),
    openTime: from,
    closeTime: now,
    firstId: Math.max(0, lastId - count + 1),
    lastId,
    count,
  };
}

function premiumIndex(market: Market, ctx: RouteContext) {
  const { now } = ctx;
  const last = ctx.exchange.lastFunding(market.spec.symbol, now);
  return {
    symbol: market.spec.symbol,
    markPrice: market.markPrice(now).toFixed(8),
    indexPrice: market.indexPrice(now).toFixed(8),
    estimatedSettlePrice: market.indexPrice(now).toFixed(8),
    lastFundingRate: last.rate.toFixed(8),
    interestRate: INTEREST_RATE.toFixed(8),
    nextFundingTime: nextFundingTime(now),
    time: now,
  };
}

function bookTicker(market: Market, now: number) {
  const spec = market.spec;
  const { bid, ask } = market.book(now);
  const size = (side: 'BID' | 'ASK') => market.levelQty(now, side, 0).toFixed(spec.quantityPrecision);
  return {
    symbol: spec.symbol,
    bidPrice: px(spec, bid),
    bidQty: size('BID'),
    askPrice: px(spec, ask),
    askQty: size('ASK'),
    time: now,
    lastUpdateId: bookUpdateId(market, now),
  };
}

export const marketDataRoutes: Route[] = [
  { method: 'GET', path: '/fapi/v1/ping', security: 'NONE', weight: 1, handler: () => ({}) },
  {
    method: 'GET',
    path: '/fapi/v1/time',
    security: 'NONE',
    weight: 1,
    handler: (ctx) => ({ serverTime: ctx.now }),
  },
  { method: 'GET', path: '/fapi/v1/exchangeInfo', security: 'NONE', weight: 1, handler: exchangeInfo },
  {
    method: 'GET',
    path: '/fapi/v1/ticker/24hr',
    security: 'NONE',
    weight: symbolWeight(1, 40),
    handler: (ctx) => oneOrAll(ctx, (m) => ticker24h(m, ctx.now)),
  },
  ...['/fapi/v1/ticker/price', '/fapi/v2/ticker/price'].map(
    (path): Route => ({
      method: 'GET',
      path,
      security: 'NONE',
      weight: symbolWeight(1, 2),
      handler: (ctx) =>
        oneOrAll(ctx, (m) => ({
          symbol: m.spec.symbol,
          price: px(m.spec, m.lastPrice(ctx.now)),
          time: ctx.now,
        })),
    }),
  ),
  {
    method: 'GET',
    path: '/fapi/v1/ticker/bookTicker',
    security: 'NONE',
    weight: symbolWeight(2, 5),
    handler: (ctx) => oneOrAll(ctx, (m) => bookTicker(m, ctx.now)),
  },
  {
    method: 'GET',
    path: '/fapi/v1/premiumIndex',
    security: 'NONE',
    weight: symbolWeight(1, 10),
    handler: (ctx) => oneOrAll(ctx, (m) => premiumIndex(m, ctx)),
  },
  {
    method: 'GET',
    path: '/fapi/v1/klines',
    security: 'NONE',
    weight: (p) => klinesWeight(p.int('limit') ?? 500),
    handler: (ctx) => {
      const market = marketParam(ctx);
      const interval = parseInterval(ctx.params.get('interval'));
      const limit = ctx.params.limit(500, 1500);
      const startTime = ctx.params.int('startTime');
      const endTime = ctx.params.int('endTime');
      if (startTime !== undefined && endTime !== undefined && startTime > endTime) {
        throw errors.invalidParam('startTime must be before endTime.');
      }
      const spec = market.spec;
      return klines(market.feed, { interval, limit, startTime, endTime }, ctx.now).map((k) => [
        k.openTime,
        px(spec, k.open),
        px(spec, k.high),
        px(spec, k.low),
        px(spec, k.close),
        k.volume.toFixed(spec.quantityPrecision),
        k.closeTime,
        k.quoteVolume.toFixed(5),
        k.trades,
        k.takerBuyBase.toFixed(spec.quantityPrecision),
        k.takerBuyQuote.toFixed(5),
        '0',
      ]);
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/fundingRate',
    security: 'NONE',
    weight: 1,
    handler: (ctx) => {
      const market = marketParam(ctx);
      const limit = ctx.params.limit(100, 1000);
      const end = Math.min(ctx.params.int('endTime') ?? ctx.now, ctx.now);
      const start = ctx.params.int('startTime');
      const first = Math.max(market.feed.firstOpenTime, start ?? 0);
      const times: number[] = [];
      if (start !== undefined) {
        let t = Math.ceil(first / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
        for (; t <= end && times.length < limit; t += FUNDING_INTERVAL_MS) times.push(t);
      } else {
        let t = Math.floor(end / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
        for (; t >= first && times.length < limit; t -= FUNDING_INTERVAL_MS) times.unshift(t);
      }
      return times.map((t) => ({
        symbol: market.spec.symbol,
        fundingRate: ctx.exchange.lastFunding(market.spec.symbol, t).rate.toFixed(8),
        fundingTime: t,
        markPrice: market.markPrice(t).toFixed(8),
      }));
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/depth',
    security: 'NONE',
    weight: (p) => {
      const l = p.int('limit') ?? 500;
      return l <= 50 ? 2 : l <= 100 ? 5 : l <= 500 ? 10 : 20;
    },
    handler: (ctx) => {
      const market = marketParam(ctx);
      const limit = ctx.params.int('limit') ?? 500;
      if (![5, 10, 20, 50, 100, 500, 1000].includes(limit)) {
        throw errors.invalidParam('Invalid limit: valid limits are 5, 10, 20, 50, 100, 500, 1000.');
      }
      const spec = market.spec;
      const book = market.depth(ctx.now, limit);
      const row = (l: BookLevel) => [
        l.price.toFixed(spec.pricePrecision),
        l.qty.toFixed(spec.quantityPrecision),
      ];
      return {
        // The numbering of the depth streams' U/u/pu, so a client can join a snapshot to the diff stream
        lastUpdateId: bookUpdateId(market, ctx.now),
        E: ctx.now,
        T: ctx.now,
        bids: book.bids.map(row),
        asks: book.asks.map(row),
      };
    },
  },
  aggTradesRoute,
];
