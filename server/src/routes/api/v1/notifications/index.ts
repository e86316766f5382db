import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import {
  CreatedWebhookResponseSchema,
  CreateWebhookRequestSchema,
  NotificationIdParamsSchema,
  NotificationListResponseSchema,
  NotificationsQuerySchema,
  WebhookDeliveriesResponseSchema,
  WebhookDeliveryResponseSchema,
  WebhookIdParamsSchema,
  WebhookListResponseSchema,
} from '@kestrel/contracts/account';
import { z } from 'zod';
import { callerId, ERRORS, ok, okMessage, signedInRoutes } from '../../../route-schemas';
import { requireStepUp } from '../../../step-up';

const DeliveriesQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(100, { error: 'limit must be at most 100' })
    .default(20),
});

/** The signed-in user's in-app notifications and webhooks */
export default signedInRoutes('notifications', async (app, route) => {
  app.get(
    '/',
    route({
      summary: 'The in-app notifications, newest first, with the unread count',
      querystring: NotificationsQuerySchema,
      response: { 200: NotificationListResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(await app.notifications.list(callerId(request), request.query.limit), 'Notifications'),
  );

  app.post(
    '/read',
    route({
      summary: 'Mark every notification read',
      response: { 200: MessageResponseSchema, ...ERRORS.signedOut },
    }),
    async (request) => {
      await app.notifications.markRead(callerId(request), undefined);
      return okMessage('All notifications read');
    },
  );

  app.post(
    '/:id/read',
    route({
      summary: 'Mark one notification read',
      params: NotificationIdParamsSchema,
      response: { 200: MessageResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => {
      await app.notifications.markRead(callerId(request), request.params.id);
      return okMessage('Notification read');
    },
  );

  app.get(
    '/webhooks',
    route({
      summary: 'The webhooks with their latest delivery (never their secrets)',
      response: { 200: WebhookListResponseSchema, ...ERRORS.signedOut },
    }),
    async (request) => ok(await app.notifications.listWebhooks(callerId(request)), 'Webhooks'),
  );

  app.post(
    '/webhooks',
    {
      ...route({
        summary: 'Add a webhook; the answer shows its signing secret, once',
        description:
          'Deliveries are POSTs signed with `X-Kestrel-Signature: sha256=<hex HMAC-SHA256 of "<X-Kestrel-Timestamp>.<body>">`. A URL whose host resolves to a private, loopback or link-local address is refused (400 WEBHOOK_URL_REFUSED) unless the operator set KESTREL_WEBHOOKS_ALLOW_PRIVATE=1. Needs the password within 5 minutes (403 STEP_UP_REQUIRED): the account’s events go to a new address.',
        body: CreateWebhookRequestSchema,
        response: { 201: CreatedWebhookResponseSchema, ...ERRORS.input, 403: ErrorResponseSchema },
      }),
      preHandler: requireStepUp,
    },
    async (request, reply) => {
      const data = await app.notifications.createWebhook(callerId(request), request.body);
      return reply.code(201).send(ok(data, 'Webhook added. Copy the secret now: it is not shown again'));
    },
  );

  app.delete(
    '/webhooks/:id',
    route({
      summary: 'Delete a webhook and its delivery log',
      params: WebhookIdParamsSchema,
      response: { 200: MessageResponseSchema, ...ERRORS.notFound },
    }),
    async (request) => {
      await app.notifications.deleteWebhook(callerId(request), request.params.id);
      return okMessage('Webhook deleted');
    },
  );

  app.post(
    '/webhooks/:id/test',
    route({
      summary:
        'Send a test delivery now; answers with its first attempt (retried like any other if it failed)',
      params: WebhookIdParamsSchema,
      response: { 200: WebhookDeliveryResponseSchema, ...ERRORS.notFound },
    }),
    async (request) =>
      ok(await app.notifications.sendTest(callerId(request), request.params.id), 'Test sent'),
  );

  app.get(
    '/webhooks/:id/deliveries',
    route({
      summary: 'The delivery log of a webhook, newest first',
      params: WebhookIdParamsSchema,
      querystring: DeliveriesQuerySchema,
      response: { 200: WebhookDeliveriesResponseSchema, ...ERRORS.notFound },
    }),
    async (request) =>
      ok(
        await app.notifications.deliveries(callerId(request), request.params.id, request.query.limit),
        'Deliveries',
      ),
  );
});
