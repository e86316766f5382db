/**
 * The Bot API's shapes as https://core.telegram.org/bots/api documents them, for the part the stand-in serves.
 * Field names are Telegram's (snake_case); dates are Unix seconds. `test-data/` holds one envelope of each
 */

/** A Telegram user or bot (`User`) */
export interface TelegramUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
}

/** What `getMe` answers: the bot, with the flags Telegram adds for bots */
export interface BotUser extends TelegramUser {
  is_bot: true;
  can_join_groups: boolean;
  can_read_all_group_messages: boolean;
  supports_inline_queries: boolean;
  can_connect_to_business: boolean;
  has_main_web_app: boolean;
}

export type ChatType = 'private' | 'group' | 'supergroup' | 'channel';

/** A chat as messages carry it (`Chat`): a private chat's id is its user's id */
export interface TelegramChat {
  id: number;
  type: ChatType;
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

/** A `bot_command` entity: Telegram marks `/word` at the start of a text */
export interface MessageEntity {
  type: 'bot_command';
  offset: number;
  length: number;
}

/** `Message`, the fields the stand-in fills */
export interface TelegramMessage {
  message_id: number;
  from?: TelegramUser;
  chat: TelegramChat;
  date: number;
  text?: string;
  entities?: MessageEntity[];
  /** Only an inline keyboard comes back on a sent message, as Telegram does */
  reply_markup?: { inline_keyboard: unknown[][] };
}

/** `Update`: the stand-in only ever has messages in it */
export interface TelegramUpdate {
  update_id: number;
  message: TelegramMessage;
}

/** `WebhookInfo` */
export interface WebhookInfo {
  url: string;
  has_custom_certificate: boolean;
  pending_update_count: number;
  max_connections?: number;
  allowed_updates?: string[];
}

/** The envelope of every answer */
export type BotApiResponse<T> =
  | { ok: true; result: T; description?: string }
  | { ok: false; error_code: number; description: string; parameters?: { retry_after?: number } };

/**
 * Telegram's own words for the errors the stand-in gives (status and description), so a client written against
 * them reads the stand-in's answers as it would Telegram's
 */
export const BotApiErrors = {
  unauthorized: { status: 401, description: 'Unauthorized' },
  notFound: { status: 404, description: 'Not Found' },
  webhookActive: {
    status: 409,
    description:
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
  },
  terminatedByOtherGetUpdates: {
    status: 409,
    description:
      'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
  },
  chatNotFound: { status: 400, description: 'Bad Request: chat not found' },
  textEmpty: { status: 400, description: 'Bad Request: message text is empty' },
  textTooLong: { status: 400, description: 'Bad Request: message is too long' },
  parseMode: { status: 400, description: 'Bad Request: unsupported parse_mode' },
  chatIdEmpty: { status: 400, description: 'Bad Request: chat_id is empty' },
  webhookHttps: {
    status: 400,
    description: 'Bad Request: bad webhook: HTTPS url must be provided for webhook',
  },
  replyMarkup: { status: 400, description: "Bad Request: can't parse reply keyboard markup JSON object" },
} as const satisfies Record<string, { status: number; description: string }>;

/** Longest text a message may carry */
export const MESSAGE_MAX_LENGTH = 4096;
/** Most updates one getUpdates answers (and the default) */
export const UPDATES_LIMIT_MAX = 100;
export const PARSE_MODES = ['MarkdownV2', 'HTML', 'Markdown'] as const;
