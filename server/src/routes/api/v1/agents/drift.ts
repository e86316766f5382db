import { ErrorResponseSchema } from '@kestrel/contracts';
import { BotIdParamsSchema, DriftReportResponseSchema } from '@kestrel/contracts/bots';
import { callerId, ERRORS, ok, signedInRoutes } from '../../../route-schemas';

/**
 * `GET /api/v1/agents/{id}/drift`: the bot's fills over its last run against a backtest of the same strategy,
 * parameters, symbol and interval on the same klines (issue 20, item 5). Another user's bot is a 404
 */
export default signedInRoutes('agents', async (app, route) => {
  app.get(
    '/:id/drift',
    route({
      summary: "The bot's fills against a backtest of the same strategy over the same period",
      description:
        'Matched trades (same side, entries at most 3 bars apart, the closest first) with their entry and exit ' +
        'time and price differences, slippage in basis points against the trader, realized PnL and fee ' +
        'differences; trades only the bot or only the backtest made; totals with funding. The backtest uses ' +
        "/backtesting's default costs with the bot's budget and leverage, started the strategy's warm-up " +
        'before the run. 409 when the bot never ran or no backtest can cover its run.',
      params: BotIdParamsSchema,
      response: {
        200: DriftReportResponseSchema,
        ...ERRORS.notFound,
        ...ERRORS.exchange,
        409: ErrorResponseSchema,
      },
    }),
    async (request) =>
      ok(await app.driftService.report(callerId(request), request.params.id), 'Drift report'),
  );
});
