import { AnalyticsQuerySchema, AnalyticsResponseSchema } from '@kestrel/contracts';
import { ERRORS, ok, signedInRoutes, tradingAccountOf } from '../../../route-schemas';

/** The /analytics page's figures, beside the other dashboard reads (same prefix, tag and guard) */
export default signedInRoutes('dashboard', async (app, route) => {
  const analytics = app.analyticsService;

  app.get(
    '/analytics',
    route({
      summary:
        'Results of a range from the recorded history: equity and drawdown (≤ 1000 points), max drawdown, PnL per ' +
        'UTC day, per symbol, win rate, profit factor, Sharpe and Sortino (daily returns, × √365), fees and funding',
      querystring: AnalyticsQuerySchema,
      response: { 200: AnalyticsResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(await analytics.analytics(await tradingAccountOf(request), request.query), 'Account analytics'),
  );
});
