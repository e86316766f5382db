import {
  KlinesQuerySchema,
  KlinesResponseSchema,
  MarketDataQuerySchema,
  MarketDataResponseSchema,
  MarketStatusResponseSchema,
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
