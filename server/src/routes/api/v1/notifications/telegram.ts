import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import {
  TelegramChatResponseSchema,
  TelegramCommandsQuerySchema,
  TelegramCommandsResponseSchema,
  TelegramLinkCodeResponseSchema,
  TelegramSettingsResponseSchema,
  UpdateTelegramEventsRequestSchema,
} from '@kestrel/contracts/account';
import { callerId, ERRORS, ok, okMessage, signedInRoutes } from '../../../route-schemas';
import { requireStepUp } from '../../../step-up';

/** The signed-in user's Telegram chat: linking it, its events, unlinking, the record of its commands */
export default signedInRoutes('notifications', async (app, route) => {
  const telegram = app.telegram;

  app.get(
    '/',
    route({
      summary: 'Whether the server has a Telegram bot, its name, and the linked chat (null when none)',
      response: { 200: TelegramSettingsResponseSchema, ...ERRORS.signedOut },
    }),
    async (request) => ok(await telegram.settings(callerId(request)), 'Telegram'),
  );

  app.post(
    '/link-code',
    {
      ...route({
        summary:
          'A one-time code (10 minutes) to send the bot as /start <code>; an earlier code stops working',
        description:
          'A linked chat can run the kill switch, so this needs the password given in the last 5 minutes (sign-in or ' +
          'POST /api/v1/account/step-up): 403 STEP_UP_REQUIRED otherwise. 409 TELEGRAM_OFF when the server has no ' +
          'bot, 503 TELEGRAM_UNREACHABLE when Telegram does not answer.',
        response: {
          201: TelegramLinkCodeResponseSchema,
          ...ERRORS.signedOut,
          403: ErrorResponseSchema,
          409: ErrorResponseSchema,
          503: ErrorResponseSchema,
        },
      }),
      preHandler: requireStepUp,
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          ok(await telegram.createLinkCode(callerId(request)), 'Send the code to the bot within 10 minutes'),
        ),
  );

  app.put(
    '/events',
    route({
      summary: 'The events the linked chat is told about (an empty list: none)',
      body: UpdateTelegramEventsRequestSchema,
      response: { 200: TelegramChatResponseSchema, ...ERRORS.notFound },
    }),
    async (request) =>
      ok(await telegram.setEvents(callerId(request), request.body.events), 'Telegram events saved'),
  );

  app.delete(
    '/',
    route({
      summary: 'Unlink the chat: it is told nothing more and its commands are refused',
      response: { 200: MessageResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => {
      await telegram.unlink(callerId(request));
      return okMessage('Telegram chat unlinked');
    },
  );

  app.get(
    '/commands',
    route({
      summary: 'The commands the linked chat sent and their answers, newest first',
      querystring: TelegramCommandsQuerySchema,
      response: { 200: TelegramCommandsResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(await telegram.commandRecord(callerId(request), request.query.limit), 'Telegram commands'),
  );
});
