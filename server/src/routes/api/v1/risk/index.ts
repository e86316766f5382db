import {
  ErrorResponseSchema,
  KillSwitchResponseSchema,
  RiskEventsQuerySchema,
  RiskEventsResponseSchema,
  type RiskLimits,
  RiskLimitsResponseSchema,
  RiskLimitsSchema,
  RiskOverviewResponseSchema,
} from '@kestrel/contracts';
import { callerId, ERRORS, ok, signedInRoutes, tradingAccountOf } from '../../../route-schemas';
import { requireStepUp } from '../../../step-up';

/** The /risk page: account limits, risk figures, the risk audit and the kill switch */
export default signedInRoutes('risk', async (app, route) => {
  const risk = app.riskService;

  app.get(
    '/limits',
    route({
      summary: 'The account limits checked before every order (null: no limit); no keys needed',
      response: { 200: RiskLimitsResponseSchema, ...ERRORS.input },
    }),
    async (request) => ok(await risk.limits(callerId(request)), 'Risk limits'),
  );

  app.put(
    '/limits',
    {
      ...route({
        summary:
          'Replace the account limits (every field, null for none); the change is recorded in the risk events',
        description:
          'Raising or removing a limit needs the password given in the last 5 minutes (403 STEP_UP_REQUIRED); ' +
          'tightening never does.',
        body: RiskLimitsSchema,
        response: { 200: RiskLimitsResponseSchema, ...ERRORS.input, 403: ErrorResponseSchema },
      }),
      preHandler: async (request) => {
        const loosened = await risk.loosenedLimits(callerId(request), request.body as RiskLimits);
        if (loosened.length > 0) await requireStepUp(request);
      },
    },
    async (request) => ok(await risk.saveLimits(callerId(request), request.body), 'Risk limits saved'),
  );

  app.get(
    '/overview',
    route({
      summary:
        'Margin ratio, gross and net leverage, distance to liquidation per position (% and ATR(14) of 1h ' +
        'candles), exposure by symbol and direction, 1-day 95 % historical VaR (90 daily closes), limit usage',
      response: { 200: RiskOverviewResponseSchema, ...ERRORS.exchange },
    }),
    async (request) => ok(await risk.overview(await tradingAccountOf(request)), 'Risk overview'),
  );

  app.get(
    '/events',
    route({
      summary: 'Refused orders, limit changes and kill switches, newest first (limit default 100)',
      querystring: RiskEventsQuerySchema,
      response: { 200: RiskEventsResponseSchema, ...ERRORS.input },
    }),
    async (request) => ok(await risk.events(callerId(request), request.query.limit), 'Risk events'),
  );

  app.post(
    '/kill-switch',
    route({
      summary:
        'Cancel every open order (conditional ones too) and close every open position with a reduce-only ' +
        'market order; each outcome is answered and recorded, one failure does not stop the rest',
      response: { 200: KillSwitchResponseSchema, ...ERRORS.exchange },
    }),
    async (request) => {
      const data = await risk.killSwitch(await tradingAccountOf(request));
      const message =
        data.failed === 0 ? 'Kill switch done' : `Kill switch done with ${data.failed} failure(s)`;
      return ok(data, message);
    },
  );
});
