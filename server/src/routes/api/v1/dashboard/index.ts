import {
  DashboardOverviewResponseSchema,
  DashboardPortfolioResponseSchema,
  EquityHistoryResponseSchema,
  EquityQuerySchema,
  IncomePageResponseSchema,
  IncomeQuerySchema,
} from '@kestrel/contracts';
import { ERRORS, ok, signedInRoutes, tradingAccountOf } from '../../../route-schemas';

/** The spec's dashboard calls (§7) on the signed-in user's connected Binance account */
export default signedInRoutes('dashboard', async (app, route) => {
  const dashboard = app.dashboardService;

  app.get(
    '/overview',
    route({
      summary:
        'Account cards: balances, margin ratio, today’s realized PnL (00:00 UTC on), open positions, orders and bots',
      response: { 200: DashboardOverviewResponseSchema, ...ERRORS.exchange },
    }),
    async (request) => ok(await dashboard.overview(await tradingAccountOf(request)), 'Account overview'),
  );

  app.get(
    '/portfolio',
    route({
      summary: 'Balances per asset valued in USDT, open positions and their share of exposure and margin',
      response: { 200: DashboardPortfolioResponseSchema, ...ERRORS.exchange },
    }),
    async (request) => ok(await dashboard.portfolio(await tradingAccountOf(request)), 'Portfolio'),
  );

  app.get(
    '/equity',
    route({
      summary:
        'Recorded equity snapshots (one a minute) of a range, oldest first, downsampled to at most 1000 points ' +
        '(each bucket: its last snapshot and its lowest margin balance)',
      querystring: EquityQuerySchema,
      response: { 200: EquityHistoryResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(await dashboard.equity(await tradingAccountOf(request), request.query), 'Equity history'),
  );

  app.get(
    '/income',
    route({
      summary:
        'Imported income history (realized PnL, commission, funding, transfers…) of a range, filtered by type ' +
        'and symbol, sorted (default newest first) and paged',
      querystring: IncomeQuerySchema,
      response: { 200: IncomePageResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(await dashboard.income(await tradingAccountOf(request), request.query), 'Income history'),
  );
});
