import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { countParam, ms } from '../common/fields';
import { WEBHOOK_EVENTS, WebhookEventSchema } from './notifications';

/**
 * Telegram (`/api/v1/notifications/telegram/*`): the operator's bot (one token for the whole server,
 * KESTREL_TELEGRAM_BOT_TOKEN) tells a user's linked chat about the events they chose, and takes commands from that
 * chat (/status, /profit, /bots, /stop, /kill). A chat is linked by sending the bot a one-time code. Times are epoch
 * milliseconds.
 */

/** How long a link code is valid */
export const TELEGRAM_LINK_CODE_TTL_MS = 10 * 60_000;
/** Letters and digits of a link code: no 0/O, 1/I/L, so it reads and types back without doubt */
export const TELEGRAM_LINK_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const TELEGRAM_LINK_CODE_LENGTH = 8;

/** The events a chat can be told about: the webhooks' list (every event but `test`) */
export const TELEGRAM_EVENTS = WEBHOOK_EVENTS;
export const TelegramEventSchema = WebhookEventSchema;
export type TelegramEvent = z.infer<typeof TelegramEventSchema>;

/** What a newly linked chat is told about until the user chooses: everything but fills (a grid bot fills often) */
export const TELEGRAM_DEFAULT_EVENTS = TELEGRAM_EVENTS.filter((e) => e !== 'order_filled');

/** The linked chat, as the account page shows it */
export const TelegramChatSchema = z.object({
  /** The Telegram user name (without @) of the chat; null when the user has none */
  username: z.string().nullable(),
  linkedAt: ms,
  events: z.array(TelegramEventSchema),
});
export type TelegramChat = z.infer<typeof TelegramChatSchema>;

/** GET /api/v1/notifications/telegram */
export const TelegramSettingsSchema = z.object({
  /** The operator configured a bot (KESTREL_TELEGRAM_BOT_TOKEN); when false nothing below works */
  enabled: z.boolean(),
  /** The bot's user name (without @), once Telegram answered getMe */
  botUsername: z.string().optional(),
  /** The user's linked chat, or null */
  chat: TelegramChatSchema.nullable(),
});
export type TelegramSettings = z.infer<typeof TelegramSettingsSchema>;

/** POST /api/v1/notifications/telegram/link-code: send `/start <code>` (or follow `deepLink`) to the bot */
export const TelegramLinkCodeSchema = z.object({
  code: z.string(),
  expiresAt: ms,
  botUsername: z.string(),
  /** `https://t.me/<bot>?start=<code>`: opens the bot with the code filled in */
  deepLink: z.string(),
});
export type TelegramLinkCode = z.infer<typeof TelegramLinkCodeSchema>;

/** PUT /api/v1/notifications/telegram/events: the events the chat is told about (an empty list: none) */
export const UpdateTelegramEventsRequestSchema = z.strictObject({
  events: z
    .array(TelegramEventSchema, { error: 'Events must be a list' })
    .max(TELEGRAM_EVENTS.length)
    .transform((events) => [...new Set(events)]),
});
export type UpdateTelegramEventsRequest = z.infer<typeof UpdateTelegramEventsRequestSchema>;

/** One command the linked chat sent and what the bot answered */
export const TelegramCommandRecordSchema = z.object({
  /** The command as sent (a link code is not kept) */
  command: z.string(),
  answer: z.string(),
  at: ms,
});
export type TelegramCommandRecord = z.infer<typeof TelegramCommandRecordSchema>;

/** GET /api/v1/notifications/telegram/commands?limit */
export const TelegramCommandsQuerySchema = z.strictObject({
  limit: countParam('limit', { max: 200, default: 50 }),
});

export const TelegramSettingsResponseSchema = okResponse(TelegramSettingsSchema);
export const TelegramLinkCodeResponseSchema = okResponse(TelegramLinkCodeSchema);
export const TelegramChatResponseSchema = okResponse(TelegramChatSchema);
export const TelegramCommandsResponseSchema = okResponse(z.array(TelegramCommandRecordSchema));
