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
import { viaExchange } from '../../../../plugins/app/exchange/exchange-http-error';

const tags = ['market'];
const security = [{ bearer: [] }];
const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  429: ErrorResponseSchema,
  503: ErrorResponseSchema,
};

/**
 * The spec's market calls (§7), answered from the configured exchange. Signed-in users only: the exchange's
 * request weight is counted per server IP, so the server must not be an open relay to it.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

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
      data: await viaExchange(() => app.exchangeAdapter.ticker(request.params.symbol)),
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
    async (request) => {
      const { symbol } = request.params;
      const { interval, limit } = request.query;
      const klines = await viaExchange(() => app.exchangeAdapter.klines(symbol, interval, limit));
      return { success: true as const, data: { symbol, interval, klines } };
    },
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
    async (request) => {
      const symbols = [...new Set(request.query.symbols)];
      const data = await viaExchange(() => Promise.all(symbols.map((s) => app.exchangeAdapter.ticker(s))));
      return { success: true as const, data };
    },
  );

  app.get(
    '/status',
    {
      schema: {
        tags,
        security,
        summary: 'Whether the configured exchange answers, with clock offset and latency',
        response: { 200: MarketStatusResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async () => {
      const environment = app.config.exchange.env;
      const started = performance.now();
      try {
        const clockOffsetMs = await app.exchangeAdapter.syncTime();
        const latencyMs = Math.round(performance.now() - started);
        return {
          success: true as const,
          data: {
            exchange: 'binance' as const,
            environment,
            reachable: true,
            clockOffsetMs,
            latencyMs,
            message: 'Binance connectivity OK',
          },
        };
      } catch (err) {
        // Status is a question, not a failure: an unreachable exchange is a normal answer here
        return {
          success: true as const,
          data: {
            exchange: 'binance' as const,
            environment,
            reachable: false,
            clockOffsetMs: null,
            latencyMs: null,
            message: `Binance connectivity failed: exchange not reachable (${(err as Error).message})`,
          },
        };
      }
    },
  );
};
export default routes;
