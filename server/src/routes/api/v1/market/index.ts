import {
  ErrorResponseSchema,
  KlinesQuerySchema,
  KlinesResponseSchema,
  MarketDataQuerySchema,
  MarketDataResponseSchema,
  MarketStatusResponseSchema,
  SymbolParamsSchema,
  TickerResponseSchema,
} from '@kestrel/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEARER, callerId, EXCHANGE_ERRORS } from '../../../route-schemas';

const tags = ['market'];
const security = BEARER;
const errors = EXCHANGE_ERRORS;

/**
 * The spec's market calls (§7), answered from the configured exchange. Signed-in users only: the exchange's
 * request weight is counted per server IP, so the server must not be an open relay to it.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const market = app.marketService;

  app.get(
    '/ticker/:symbol',
    {
      schema: {
        tags,
        security,
        summary: '24 h ticker of one symbol',
        params: SymbolParamsSchema,
        response: { 200: TickerResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await market.ticker(callerId(request), request.params.symbol),
    }),
  );

  app.get(
    '/klines/:symbol',
    {
      schema: {
        tags,
        security,
        summary: 'Candles of one symbol (interval default 1h, limit default 100)',
        params: SymbolParamsSchema,
        querystring: KlinesQuerySchema,
        response: { 200: KlinesResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await market.klines(
        callerId(request),
        request.params.symbol,
        request.query.interval,
        request.query.limit,
      ),
    }),
  );

  app.get(
    '/data',
    {
      schema: {
        tags,
        security,
        summary: 'Tickers of several symbols (symbols=BTCUSDT,ETHUSDT)',
        querystring: MarketDataQuerySchema,
        response: { 200: MarketDataResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await market.tickers(callerId(request), request.query.symbols),
    }),
  );

  app.get(
    '/status',
    {
      schema: {
        tags,
        security,
        summary:
          'Whether the exchange of the caller’s current environment answers, with clock offset and latency',
        response: { 200: MarketStatusResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({ success: true as const, data: await market.status(callerId(request)) }),
  );
};
export default routes;
