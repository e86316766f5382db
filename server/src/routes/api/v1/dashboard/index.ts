import {
  DashboardOverviewResponseSchema,
  DashboardPortfolioResponseSchema,
  EquityHistoryResponseSchema,
  EquityQuerySchema,
  ErrorResponseSchema,
  IncomePageResponseSchema,
  IncomeQuerySchema,
} from '@kestrel/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEARER, callerId, EXCHANGE_ERRORS } from '../../../route-schemas';

const tags = ['dashboard'];
const security = BEARER;
const errors = EXCHANGE_ERRORS;
const user = callerId;

/** The spec's dashboard calls (§7) on the signed-in user's connected Binance account */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const dashboard = app.dashboardService;

  app.get(
    '/overview',
    {
      schema: {
        tags,
        security,
        summary:
          'Account cards: balances, margin ratio, today’s realized PnL (00:00 UTC on), open positions, orders and bots',
        response: { 200: DashboardOverviewResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await dashboard.overview(user(request)),
      message: 'Account overview',
    }),
  );

  app.get(
    '/portfolio',
    {
      schema: {
        tags,
        security,
        summary: 'Balances per asset valued in USDT, open positions and their share of exposure and margin',
        response: { 200: DashboardPortfolioResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await dashboard.portfolio(user(request)),
      message: 'Portfolio',
    }),
  );

  app.get(
    '/equity',
    {
      schema: {
        tags,
        security,
        summary:
          'Recorded equity snapshots (one a minute) of a range, oldest first, downsampled to at most 1000 points ' +
          '(each bucket: its last snapshot and its lowest margin balance)',
        querystring: EquityQuerySchema,
        response: { 200: EquityHistoryResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await dashboard.equity(user(request), request.query),
      message: 'Equity history',
    }),
  );

  app.get(
    '/income',
    {
      schema: {
        tags,
        security,
        summary:
          'Imported income history (realized PnL, commission, funding, transfers…) of a range, filtered by type ' +
          'and symbol, sorted (default newest first) and paged',
        querystring: IncomeQuerySchema,
        response: { 200: IncomePageResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await dashboard.income(user(request), request.query),
      message: 'Income history',
    }),
  );
};

export default routes;
