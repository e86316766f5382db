import {
  DepthQuerySchema,
  KlinesQuerySchema,
  KlinesResponseSchema,
  MarketDataQuerySchema,
  MarketDataResponseSchema,
  MarketStatusResponseSchema,
  OrderBookResponseSchema,
  RecentTradesQuerySchema,
  RecentTradesResponseSchema,
  SymbolParamsSchema,
  TickerResponseSchema,
} from '@kestrel/contracts';
import { ERRORS, ok, signedInRoutes, tradingAccountOf } from '../../../route-schemas';

/**
 * The spec's market calls (§7), answered from the configured exchange. Signed-in users only: the exchange's
 * request weight is counted per server IP, so the server must not be an open relay to it.
 */
export default signedInRoutes('market', async (app, route) => {
  const market = app.marketService;

  app.get(
    '/ticker/:symbol',
    route({
      summary: '24 h ticker of one symbol',
      params: SymbolParamsSchema,
      response: { 200: TickerResponseSchema, ...ERRORS.exchange },
    }),
    async (request) => ok(await market.ticker(await tradingAccountOf(request), request.params.symbol)),
  );

  app.get(
    '/klines/:symbol',
    route({
      summary: 'Candles of one symbol (interval default 1h, limit default 100)',
      params: SymbolParamsSchema,
      querystring: KlinesQuerySchema,
      response: { 200: KlinesResponseSchema, ...ERRORS.exchange },
    }),
    async (request) =>
      ok(
        await market.klines(
          await tradingAccountOf(request),
          request.params.symbol,
          request.query.interval,
          request.query.limit,
        ),
      ),
  );

  app.get(
    '/depth/:symbol',
    route({
      summary: 'The order book: best levels per side (limit default 20, at most 50)',
      description:
        'The book the server keeps in sync for live pages when it follows the symbol (no exchange call), else the exchange’s REST book.',
      params: SymbolParamsSchema,
      querystring: DepthQuerySchema,
      response: { 200: OrderBookResponseSchema, ...ERRORS.exchange },
    }),
    async (request) => {
      const account = await tradingAccountOf(request);
      const { symbol } = request.params;
      const { limit } = request.query;
      const book =
        app.liveStreams?.books.book(account.environment, symbol, limit) ??
        (await market.depth(account, symbol, limit));
      return ok({ symbol, ...book });
    },
  );

  app.get(
    '/trades/:symbol',
    route({
      summary: 'The latest aggregate trades, oldest first (limit default 30, at most 50)',
      params: SymbolParamsSchema,
      querystring: RecentTradesQuerySchema,
      response: { 200: RecentTradesResponseSchema, ...ERRORS.exchange },
    }),
    async (request) => {
      const account = await tradingAccountOf(request);
      const { symbol } = request.params;
      const { limit } = request.query;
      const followed = app.liveStreams?.books.recentTrades(account.environment, symbol);
      const trades =
        followed && followed.length >= limit
          ? followed.slice(-limit)
          : await market.aggTrades(account, symbol, limit);
      return ok({ symbol, trades });
    },
  );

  app.get(
    '/data',
    route({
      summary: 'Tickers of several symbols (symbols=BTCUSDT,ETHUSDT)',
      querystring: MarketDataQuerySchema,
      response: { 200: MarketDataResponseSchema, ...ERRORS.exchange },
    }),
    async (request) => ok(await market.tickers(await tradingAccountOf(request), request.query.symbols)),
  );

  app.get(
    '/status',
    route({
      summary:
        'Whether the exchange of the caller’s current environment answers, with clock offset and latency',
      response: { 200: MarketStatusResponseSchema, ...ERRORS.signedOut },
    }),
    async (request) => ok(await market.status(await tradingAccountOf(request))),
  );
});
