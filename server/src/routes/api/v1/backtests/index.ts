import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import {
  BacktestCandlesResponseSchema,
  BacktestDetailResponseSchema,
  BacktestIdParamsSchema,
  BacktestListResponseSchema,
  BacktestRequestSchema,
  BacktestStrategiesResponseSchema,
  BacktestSummaryResponseSchema,
} from '@kestrel/contracts/backtest';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../../../core/auth';

const tags = ['backtests'];
const security = [{ bearer: [] }];
const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema, 404: ErrorResponseSchema };

/**
 * Backtest jobs of the signed-in user (issue 8). A run is created queued and progresses on the server; its status
 * and progress are pushed as `notifications/backtest` on the live socket. Another user's run is a 404.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const service = app.backtestService;

  app.get(
    '/strategies',
    {
      schema: {
        tags,
        security,
        summary: 'Built-in strategies with the JSON Schema and defaults of their parameters',
        response: { 200: BacktestStrategiesResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async () => ({ success: true as const, data: service.strategies() }),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'Start a backtest (202: queued; progress and completion arrive on the live socket)',
        description:
          'Klines come from the configured exchange and are cached; parameters are checked with the strategy ' +
          'schema (400 naming the field). At most one year of 1m bars (525600 bars) per run. The run waits in a ' +
          'queue shared by every server instance and runs on whichever has room. Liquidation uses the ' +
          "symbol's leverage brackets read from the exchange with the user's stored keys, else the default " +
          '(BTCUSDT) table: the detail says which in `bracketsSource`.',
        body: BacktestRequestSchema,
        response: {
          202: BacktestSummaryResponseSchema,
          ...errors,
          429: ErrorResponseSchema,
          503: ErrorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const data = await service.create(requireAuth(request).userId, request.body);
      return reply.code(202).send({ success: true as const, data });
    },
  );

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: "The user's backtests, newest first",
        response: { 200: BacktestListResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({ success: true as const, data: await service.list(requireAuth(request).userId) }),
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One backtest: request, status, metrics, equity curve, trades and chart markers',
        description:
          "`bracketsSource`: `exchange` when the run used the symbol's own leverage brackets (read with the " +
          "user's keys), `default` when it used the engine's BTCUSDT table (no keys stored, or the exchange did " +
          'not answer); null until the run has completed.',
        params: BacktestIdParamsSchema,
        response: { 200: BacktestDetailResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.get(requireAuth(request).userId, request.params.id),
    }),
  );

  app.get(
    '/:id/candles',
    {
      schema: {
        tags,
        security,
        summary: "The run's bars as candles (aggregated to a coarser interval when there are more than 5000)",
        params: BacktestIdParamsSchema,
        response: { 200: BacktestCandlesResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.candles(requireAuth(request).userId, request.params.id),
    }),
  );

  app.post(
    '/:id/cancel',
    {
      schema: {
        tags,
        security,
        summary: 'Cancel a queued or running backtest (409 when it has already finished)',
        description:
          'The run is canceled at once; the server instance running it stops fetching or terminates its worker.',
        params: BacktestIdParamsSchema,
        response: { 200: BacktestSummaryResponseSchema, ...errors, 409: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.cancel(requireAuth(request).userId, request.params.id),
    }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a finished backtest (409 while it is queued or running: cancel it first)',
        params: BacktestIdParamsSchema,
        response: { 200: MessageResponseSchema, ...errors, 409: ErrorResponseSchema },
      },
    },
    async (request) => {
      await service.delete(requireAuth(request).userId, request.params.id);
      return { success: true as const, message: 'Backtest deleted' };
    },
  );
};
export default routes;
