import {
  BacktestCandlesResponseSchema,
  BacktestDetailResponseSchema,
  BacktestIdParamsSchema,
  BacktestListResponseSchema,
  BacktestRequestSchema,
  BacktestStrategiesResponseSchema,
  BacktestSummaryResponseSchema,
} from '@kestrel/contracts/backtest';
import { userJobRoutes } from '../../../job-routes';
import { callerId, ERRORS, ok, signedInRoutes } from '../../../route-schemas';

/**
 * Backtest jobs of the signed-in user (issue 8). A run is created queued and progresses on the server; its status
 * and progress are pushed as `notifications/backtest` on the live socket. Another user's run is a 404.
 */
export default signedInRoutes('backtests', async (app, route) => {
  const service = app.backtestService;

  app.get(
    '/strategies',
    route({
      summary: 'Built-in strategies with the JSON Schema and defaults of their parameters',
      response: { 200: BacktestStrategiesResponseSchema, ...ERRORS.signedOut },
    }),
    async () => ok(service.strategies()),
  );

  userJobRoutes(app, route, {
    service,
    schemas: {
      request: BacktestRequestSchema,
      summary: BacktestSummaryResponseSchema,
      list: BacktestListResponseSchema,
      detail: BacktestDetailResponseSchema,
      idParams: BacktestIdParamsSchema,
    },
    text: {
      create: {
        summary: 'Start a backtest (202: queued; progress and completion arrive on the live socket)',
        description:
          'Klines come from the configured exchange and are cached; parameters are checked with the strategy ' +
          'schema (400 naming the field). At most one year of 1m bars (525600 bars) per run. The run waits in a ' +
          'queue shared by every server instance and runs on whichever has room. Liquidation uses the ' +
          "symbol's leverage brackets read from the exchange with the user's stored keys, else the default " +
          '(BTCUSDT) table: the detail says which in `bracketsSource`.',
      },
      list: { summary: "The user's backtests, newest first" },
      get: {
        summary: 'One backtest: request, status, metrics, equity curve, trades and chart markers',
        description:
          "`bracketsSource`: `exchange` when the run used the symbol's own leverage brackets (read with the " +
          "user's keys), `default` when it used the engine's BTCUSDT table (no keys stored, or the exchange did " +
          'not answer); null until the run has completed.',
      },
      cancel: {
        summary: 'Cancel a queued or running backtest (409 when it has already finished)',
        description:
          'The run is canceled at once; the server instance running it stops fetching or terminates its worker.',
      },
      delete: { summary: 'Delete a finished backtest (409 while it is queued or running: cancel it first)' },
    },
    deleted: 'Backtest deleted',
    reads: () =>
      app.get(
        '/:id/candles',
        route({
          summary:
            "The run's bars as candles (aggregated to a coarser interval when there are more than 5000)",
          params: BacktestIdParamsSchema,
          response: { 200: BacktestCandlesResponseSchema, ...ERRORS.notFound },
        }),
        async (request) => ok(await service.candles(callerId(request), request.params.id)),
      ),
  });
});
