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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BEARER, callerId } from '../../../route-schemas';

const tags = ['notifications'];
const errors = { 400: ErrorResponseSchema, 401: ErrorResponseSchema };
const notFound = { ...errors, 404: ErrorResponseSchema };
const DeliveriesQuerySchema = z.strictObject({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(100, { error: 'limit must be at most 100' })
    .default(20),
});

/** The signed-in user's in-app notifications and webhooks */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'The in-app notifications, newest first, with the unread count',
        querystring: NotificationsQuerySchema,
        response: { 200: NotificationListResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.notifications.list(callerId(request), request.query.limit),
      message: 'Notifications',
    }),
  );

  app.post(
    '/read',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Mark every notification read',
        response: { 200: MessageResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => {
      await app.notifications.markRead(callerId(request), undefined);
      return { success: true as const, message: 'All notifications read' };
    },
  );

  app.post(
    '/:id/read',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Mark one notification read',
        params: NotificationIdParamsSchema,
        response: { 200: MessageResponseSchema, ...notFound },
      },
    },
    async (request) => {
      await app.notifications.markRead(callerId(request), request.params.id);
      return { success: true as const, message: 'Notification read' };
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'The webhooks with their latest delivery (never their secrets)',
        response: { 200: WebhookListResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.notifications.listWebhooks(callerId(request)),
      message: 'Webhooks',
    }),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Add a webhook; the answer shows its signing secret, once',
        description:
          'Deliveries are POSTs signed with `X-Kestrel-Signature: sha256=<hex HMAC-SHA256 of "<X-Kestrel-Timestamp>.<body>">`. A URL whose host resolves to a private, loopback or link-local address is refused (400 WEBHOOK_URL_REFUSED) unless the operator set KESTREL_WEBHOOKS_ALLOW_PRIVATE=1.',
        body: CreateWebhookRequestSchema,
        response: { 201: CreatedWebhookResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const data = await app.notifications.createWebhook(callerId(request), request.body);
      return reply.code(201).send({
        success: true as const,
        data,
        message: 'Webhook added. Copy the secret now: it is not shown again',
      });
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'Delete a webhook and its delivery log',
        params: WebhookIdParamsSchema,
        response: { 200: MessageResponseSchema, ...notFound },
      },
    },
    async (request) => {
      await app.notifications.deleteWebhook(callerId(request), request.params.id);
      return { success: true as const, message: 'Webhook deleted' };
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        tags,
        security: BEARER,
        summary:
          'Send a test delivery now; answers with its first attempt (retried like any other if it failed)',
        params: WebhookIdParamsSchema,
        response: { 200: WebhookDeliveryResponseSchema, ...notFound },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.notifications.sendTest(callerId(request), request.params.id),
      message: 'Test sent',
    }),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        security: BEARER,
        summary: 'The delivery log of a webhook, newest first',
        params: WebhookIdParamsSchema,
        querystring: DeliveriesQuerySchema,
        response: { 200: WebhookDeliveriesResponseSchema, ...notFound },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.notifications.deliveries(callerId(request), request.params.id, request.query.limit),
      message: 'Deliveries',
    }),
  );
};
export default routes;
