import { BotsSummaryResponseSchema } from '@kestrel/contracts/bots';
import { callerId, ERRORS, ok, signedInRoutes } from '../../../route-schemas';

/** `GET /api/v1/dashboard/bots`: the spec's bots summary (counts by state and mode, PnL over every bot) */
export default signedInRoutes(['dashboard', 'agents'], async (app, route) => {
  app.get(
    '/bots',
    route({
      summary: "Summary of the user's bots: how many in each state and mode, and their PnL",
      response: { 200: BotsSummaryResponseSchema, ...ERRORS.signedOut },
    }),
    async (request) => ok(await app.botService.summary(callerId(request)), 'Bots summary'),
  );
});
