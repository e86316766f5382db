import {
  ErrorResponseSchema,
  KillSwitchResponseSchema,
  RiskEventsQuerySchema,
  RiskEventsResponseSchema,
  RiskLimitsResponseSchema,
  RiskLimitsSchema,
  RiskOverviewResponseSchema,
} from '@kestrel/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEARER, callerId, EXCHANGE_ERRORS } from '../../../route-schemas';

const tags = ['risk'];
const security = BEARER;
const errors = EXCHANGE_ERRORS;
const user = callerId;

/** The /risk page: account limits, risk figures, the risk audit and the kill switch */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const risk = app.riskService;

  app.get(
    '/limits',
    {
      schema: {
        tags,
        security,
        summary: 'The account limits checked before every order (null: no limit); no keys needed',
        response: { 200: RiskLimitsResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await risk.limits(user(request)),
      message: 'Risk limits',
    }),
  );

  app.put(
    '/limits',
    {
      schema: {
        tags,
        security,
        summary:
          'Replace the account limits (every field, null for none); the change is recorded in the risk events',
        body: RiskLimitsSchema,
        response: { 200: RiskLimitsResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await risk.saveLimits(user(request), request.body),
      message: 'Risk limits saved',
    }),
  );

  app.get(
    '/overview',
    {
      schema: {
        tags,
        security,
        summary:
          'Margin ratio, gross and net leverage, distance to liquidation per position (% and ATR(14) of 1h ' +
          'candles), exposure by symbol and direction, 1-day 95 % historical VaR (90 daily closes), limit usage',
        response: { 200: RiskOverviewResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await risk.overview(user(request)),
      message: 'Risk overview',
    }),
  );

  app.get(
    '/events',
    {
      schema: {
        tags,
        security,
        summary: 'Refused orders, limit changes and kill switches, newest first (limit default 100)',
        querystring: RiskEventsQuerySchema,
        response: { 200: RiskEventsResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await risk.events(user(request), request.query.limit),
      message: 'Risk events',
    }),
  );

  app.post(
    '/kill-switch',
    {
      schema: {
        tags,
        security,
        summary:
          'Cancel every open order (conditional ones too) and close every open position with a reduce-only ' +
          'market order; each outcome is answered and recorded, one failure does not stop the rest',
        response: { 200: KillSwitchResponseSchema, ...errors },
      },
    },
    async (request) => {
      const data = await risk.killSwitch(user(request));
      const message =
        data.failed === 0 ? 'Kill switch done' : `Kill switch done with ${data.failed} failure(s)`;
      return { success: true as const, data, message };
    },
  );
};

export default routes;
