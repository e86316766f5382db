import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { countParam, ms } from '../common/fields';

/**
 * Notifications: the in-app list and webhooks (`/api/v1/notifications/*`). Times are epoch milliseconds.
 *
 * A webhook delivery is a POST of `WebhookPayload` as JSON with the headers `X-Kestrel-Timestamp` (seconds),
 * `X-Kestrel-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>" keyed with the webhook's secret>`,
 * `X-Kestrel-Event` and `X-Kestrel-Delivery` (the delivery id, the same on every retry).
 */

/** What a user can be told about; `test` is only ever sent by "send test" */
export const NOTIFICATION_EVENTS = [
  'order_filled',
  'bot_started',
  'bot_stopped',
  'bot_stopped_by_risk',
  'kill_switch',
  'exchange_key_refused',
  'new_device_signin',
  'protection_failed',
  'agent_approval_waiting',
  'signin_failures',
  'test',
] as const;
export const NotificationEventSchema = z.enum(NOTIFICATION_EVENTS);
export type NotificationEvent = z.infer<typeof NotificationEventSchema>;

/** The events a webhook can subscribe to (all but `test`, which goes to the webhook it was sent from) */
export const WEBHOOK_EVENTS = NOTIFICATION_EVENTS.filter(
  (e): e is Exclude<NotificationEvent, 'test'> => e !== 'test',
);
export const WebhookEventSchema = z.enum(WEBHOOK_EVENTS, {
  error: `Event must be one of ${WEBHOOK_EVENTS.join(', ')}`,
});
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

/** Words for each event, as the settings page lists them */
export const NOTIFICATION_EVENT_LABELS: Record<NotificationEvent, string> = {
  order_filled: 'Order filled',
  bot_started: 'Bot started',
  bot_stopped: 'Bot stopped',
  bot_stopped_by_risk: 'Bot stopped by risk',
  kill_switch: 'Kill switch',
  exchange_key_refused: 'Exchange key refused',
  new_device_signin: 'Sign-in from a new device',
  protection_failed: 'TP/SL not placed',
  agent_approval_waiting: 'Agent waiting for approval',
  signin_failures: 'Failed sign-ins on your account',
  test: 'Test',
};

export const WEBHOOKS_PER_USER_MAX = 10;
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** The webhook's address: http(s) only, no credentials in it. Private addresses are refused by the server */
export const WebhookUrlSchema = z
  .string({ error: 'URL is required' })
  .trim()
  .min(1, { error: 'URL is required' })
  .max(WEBHOOK_URL_MAX_LENGTH, { error: `URL must be at most ${WEBHOOK_URL_MAX_LENGTH} characters` })
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return u.protocol === 'https:' || u.protocol === 'http:';
      } catch {
        return false;
      }
    },
    { error: 'URL must be an http:// or https:// address' },
  )
  .refine(
    (s) => {
      try {
        const u = new URL(s);
        return u.username === '' && u.password === '';
      } catch {
        return true;
      }
    },
    { error: 'URL must not contain a user name or password' },
  );

/** POST /api/v1/notifications/webhooks */
export const CreateWebhookRequestSchema = z.strictObject({
  url: WebhookUrlSchema,
  events: z
    .array(WebhookEventSchema, { error: 'Events must be a list' })
    .min(1, { error: 'Choose at least one event' })
    .max(WEBHOOK_EVENTS.length)
    .transform((events) => [...new Set(events)]),
});
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequestSchema>;
export type CreateWebhookRequestInput = z.input<typeof CreateWebhookRequestSchema>;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const DeliveryStatusSchema = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof DeliveryStatusSchema>;

/** One delivery (an event to a webhook), with its latest attempt */
export const WebhookDeliverySchema = z.object({
  id: z.uuid(),
  webhookId: z.uuid(),
  event: NotificationEventSchema,
  status: DeliveryStatusSchema,
  attempts: z.number().int().nonnegative(),
  /** When the next try is due (pending only) */
  nextAttemptAt: ms.nullable(),
  lastAttemptAt: ms.nullable(),
  /** HTTP status of the latest answer; null when none came (refused, timeout, unreachable) */
  statusCode: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
  /** The first few hundred characters of the receiver's answer */
  responseExcerpt: z.string().nullable(),
  createdAt: ms,
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/** A webhook as listed: never its secret */
export const WebhookSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(WebhookEventSchema),
  createdAt: ms,
  lastDelivery: WebhookDeliverySchema.nullable(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

/** The create answer: the only time the signing secret is shown */
export const CreatedWebhookSchema = WebhookSchema.extend({ secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhookSchema>;

export const WebhookIdParamsSchema = z.strictObject({ id: z.uuid({ error: 'Webhook id must be a UUID' }) });
export const WebhookListResponseSchema = okResponse(z.array(WebhookSchema));
export const CreatedWebhookResponseSchema = okResponse(CreatedWebhookSchema);
export const WebhookDeliveryResponseSchema = okResponse(WebhookDeliverySchema);
export const WebhookDeliveriesResponseSchema = okResponse(z.array(WebhookDeliverySchema));

/** What a receiver gets as the POST body */
export const WebhookPayloadSchema = z.object({
  /** The delivery id (also `X-Kestrel-Delivery`): a receiver drops repeats by it */
  id: z.uuid(),
  event: NotificationEventSchema,
  createdAt: ms,
  title: z.string(),
  message: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;

/** One entry of the in-app list */
export const NotificationSchema = z.object({
  id: z.uuid(),
  event: NotificationEventSchema,
  title: z.string(),
  message: z.string(),
  read: z.boolean(),
  createdAt: ms,
});
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationsQuerySchema = z.strictObject({
  limit: countParam('limit', { max: 200, default: 50 }),
});
export const NotificationListSchema = z.object({
  items: z.array(NotificationSchema),
  unread: z.number().int().nonnegative(),
});
export type NotificationList = z.infer<typeof NotificationListSchema>;
export const NotificationListResponseSchema = okResponse(NotificationListSchema);
export const NotificationIdParamsSchema = z.strictObject({
  id: z.uuid({ error: 'Notification id must be a UUID' }),
});
