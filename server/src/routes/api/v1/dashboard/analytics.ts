import { AnalyticsQuerySchema, AnalyticsResponseSchema, ErrorResponseSchema } from '@kestrel/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../../../core/auth';

/** The /analytics page's figures, beside the other dashboard reads (same prefix, tag and guard) */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const analytics = app.analyticsService;

  app.get(
    '/analytics',
    {
      schema: {
        tags: ['dashboard'],
        security: [{ bearer: [] }],
        summary:
          'Results of a range from the recorded history: equity and drawdown (≤ 1000 points), max drawdown, PnL per ' +
          'UTC day, per symbol, win rate, profit factor, Sharpe and Sortino (daily returns, × √365), fees and funding',
        querystring: AnalyticsQuerySchema,
        response: { 200: AnalyticsResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await analytics.analytics(requireAuth(request).userId, request.query),
      message: 'Account analytics',
    }),
  );
};

export default routes;
