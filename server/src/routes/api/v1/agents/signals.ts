import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import {
  BotIdParamsSchema,
  SignalHookCreatedResponseSchema,
  SignalHookResponseSchema,
  SignalsQuerySchema,
  SignalsResponseSchema,
} from '@kestrel/contracts/bots';
import { callerId, ERRORS, ok, okMessage, signedInRoutes } from '../../../route-schemas';
import { requireStepUp } from '../../../step-up';

/**
 * A bot's signal webhook and the signals it received (`/api/v1/agents/{id}/signal-hook`, `…/signals`). Making or
 * replacing the hook shows its secret once; for a live bot (its signals move money) it needs the password given in
 * the last 5 minutes (step-up)
 */
export default signedInRoutes('agents', async (app, route) => {
  const signals = app.botSignals;

  app.get(
    '/:id/signal-hook',
    route({
      summary: "The bot's signal webhook (null: it has none)",
      params: BotIdParamsSchema,
      response: { 200: SignalHookResponseSchema, ...ERRORS.notFound },
    }),
    async (request) =>
      ok({ hook: await signals.hook(callerId(request), request.params.id) }, 'Signal webhook'),
  );

  app.post(
    '/:id/signal-hook',
    {
      ...route({
        summary: 'Make the bot’s signal webhook, or replace its URL and secret (the old ones stop at once)',
        params: BotIdParamsSchema,
        response: { 201: SignalHookCreatedResponseSchema, ...ERRORS.notFound, 403: ErrorResponseSchema },
      }),
      preHandler: async (request) => {
        const bot = await app.botService.get(callerId(request), (request.params as { id: string }).id);
        if (bot.mode === 'live') await requireStepUp(request);
      },
    },
    async (request, reply) => {
      const made = await signals.createHook(callerId(request), request.params.id);
      return reply.code(201).send(ok(made, 'Signal webhook ready: copy the secret now, it is shown once'));
    },
  );

  app.delete(
    '/:id/signal-hook',
    route({
      summary: 'Remove the bot’s signal webhook: its URL stops taking signals',
      params: BotIdParamsSchema,
      response: { 200: MessageResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => {
      await signals.deleteHook(callerId(request), request.params.id);
      return okMessage('Signal webhook removed');
    },
  );

  app.get(
    '/:id/signals',
    route({
      summary: 'The signals the bot’s webhook received, newest first, with what each caused',
      params: BotIdParamsSchema,
      querystring: SignalsQuerySchema,
      response: { 200: SignalsResponseSchema, ...ERRORS.notFound },
    }),
    async (request) =>
      ok(
        { signals: await signals.list(callerId(request), request.params.id, request.query.limit) },
        'Signals',
      ),
  );
});
