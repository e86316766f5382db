import { ErrorResponseSchema } from '@kestrel/contracts';
import { BotsSummaryResponseSchema } from '@kestrel/contracts/bots';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEARER, callerId } from '../../../route-schemas';

/** `GET /api/v1/dashboard/bots`: the spec's bots summary (counts by state and mode, PnL over every bot) */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  app.get(
    '/bots',
    {
      schema: {
        tags: ['dashboard', 'agents'],
        security: BEARER,
        summary: "Summary of the user's bots: how many in each state and mode, and their PnL",
        response: { 200: BotsSummaryResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.botService.summary(callerId(request)),
      message: 'Bots summary',
    }),
  );
};

export default routes;
