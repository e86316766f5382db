import { z } from 'zod';
import type { Clock } from '../../../lib/clock';

/** A send gets this long to be answered */
export const SEND_TIMEOUT_MS = 10_000;
/** A long poll's answer may come this much later than the `timeout` it asked for */
const POLL_GRACE_MS = 15_000;

const UserSchema = z.object({
  id: z.number().int(),
  is_bot: z.boolean(),
  first_name: z.string(),
  username: z.string().optional(),
});
export type TelegramUser = z.infer<typeof UserSchema>;

const MessageSchema = z.object({
  message_id: z.number().int(),
  from: UserSchema.optional(),
  chat: z.object({ id: z.number().int(), type: z.string(), username: z.string().optional() }),
  date: z.number().int(),
  text: z.string().optional(),
});
export type TelegramMessage = z.infer<typeof MessageSchema>;

/** An update: messages only are read; the others (edits, callbacks, channel posts) pass with no message */
const UpdateSchema = z.object({ update_id: z.number().int(), message: MessageSchema.optional() });
export type TelegramUpdate = z.infer<typeof UpdateSchema>;

const ErrorEnvelopeSchema = z.object({
  ok: z.literal(false),
  error_code: z.number().int().optional(),
  description: z.string().optional(),
  parameters: z.object({ retry_after: z.number().optional() }).optional(),
});

/**
 * A Bot API call that failed: Telegram's status and words (`status` null when no answer came). Its message names the
 * method and never the request URL, which carries the bot token
 */
export class TelegramApiError extends Error {
  constructor(
    readonly method: string,
    readonly status: number | null,
    readonly description: string,
    /** A 429's `parameters.retry_after`, in seconds */
    readonly retryAfterS?: number,
  ) {
    super(`Telegram ${method}: ${status === null ? '' : `${status} `}${description}`);
    this.name = 'TelegramApiError';
  }
}

/** Why a request got no answer, in words without the URL (a code such as ECONNREFUSED, or a timeout) */
function noAnswer(err: unknown, timedOut: boolean): string {
  if (timedOut) return 'no answer in time';
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return `not reachable (${cause.code})`;
  if ((err as { name?: unknown } | undefined)?.name === 'AbortError') return 'aborted';
  return 'not reachable';
}

export interface TelegramClientOptions {
  /** The Bot API's base URL (`https://api.telegram.org` or a stand-in) */
  apiUrl: string;
  token: string;
  clock: Clock;
}

/**
 * The Bot API calls Kestrel makes (getMe, getUpdates, sendMessage), JSON over HTTPS. The token is in every path
 * (`/bot<token>/<method>`), so nothing here puts a URL into an error or a log line: failures are `TelegramApiError`s
 * naming the method and Telegram's answer. Deadlines run on the injected clock
 */
export class TelegramClient {
  readonly botId: number;

  constructor(private readonly options: TelegramClientOptions) {
    this.botId = Number(options.token.split(':')[0]);
  }

  getMe(signal?: AbortSignal): Promise<TelegramUser> {
    return this.call('getMe', {}, UserSchema, SEND_TIMEOUT_MS, signal);
  }

  /** Updates from `offset` on, waiting up to `timeoutS` seconds for one when none is queued */
  getUpdates(offset: number, timeoutS: number, signal?: AbortSignal): Promise<TelegramUpdate[]> {
    return this.call(
      'getUpdates',
      { offset, timeout: timeoutS, limit: 50, allowed_updates: ['message'] },
      z.array(UpdateSchema),
      timeoutS * 1000 + POLL_GRACE_MS,
      signal,
    );
  }

  /** A plain-text message (no parse mode: nothing in it needs escaping) */
  sendMessage(chatId: number, text: string, signal?: AbortSignal): Promise<TelegramMessage> {
    return this.call(
      'sendMessage',
      { chat_id: chatId, text, link_preview_options: { is_disabled: true } },
      MessageSchema,
      SEND_TIMEOUT_MS,
      signal,
    );
  }

  private async call<T>(
    method: string,
    params: Record<string, unknown>,
    result: z.ZodType<T>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<T> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = this.options.clock.after(timeoutMs, () => {
      timedOut = true;
      controller.abort();
    });
    const stop = () => controller.abort();
    signal?.addEventListener('abort', stop, { once: true });
    if (signal?.aborted) controller.abort();
    try {
      let res: Response;
      let body: unknown;
      try {
        res = await fetch(`${this.options.apiUrl}/bot${this.options.token}/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(params),
          signal: controller.signal,
        });
        body = await res.json().catch(() => undefined);
      } catch (err) {
        throw new TelegramApiError(method, null, noAnswer(err, timedOut));
      }
      if (typeof body === 'object' && body !== null && (body as { ok?: unknown }).ok === true) {
        const parsed = result.safeParse((body as { result?: unknown }).result);
        if (parsed.success) return parsed.data;
        throw new TelegramApiError(method, res.status, 'answered a result Kestrel could not read');
      }
      const error = ErrorEnvelopeSchema.safeParse(body);
      if (!error.success)
        throw new TelegramApiError(method, res.status, 'answered something that is not the Bot API');
      throw new TelegramApiError(
        method,
        error.data.error_code ?? res.status,
        error.data.description ?? 'failed',
        error.data.parameters?.retry_after,
      );
    } finally {
      timer.cancel();
      signal?.removeEventListener('abort', stop);
    }
  }
}
