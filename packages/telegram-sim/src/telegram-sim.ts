import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BotApiErrors,
  type BotApiResponse,
  type BotUser,
  MESSAGE_MAX_LENGTH,
  type MessageEntity,
  PARSE_MODES,
  type TelegramChat,
  type TelegramMessage,
  type TelegramUpdate,
  type TelegramUser,
  UPDATES_LIMIT_MAX,
  type WebhookInfo,
} from './bot-api';
import { BodyError, boolParam, callParams, intParam, readBody, stringParam } from './params';

/** The token a stand-in takes unless given one: `<bot id>:<secret>`, as BotFather hands them out */
export const DEFAULT_TOKEN = '7000000001:AAE-kestrel-test-token-0000000000000';
export const DEFAULT_BOT_USERNAME = 'kestrel_test_bot';
/** Telegram holds a long poll at most this long whatever `timeout` asks */
export const MAX_POLL_SECONDS = 50;
/** Prefix of the test API over HTTP; no Bot API path starts with it */
export const ADMIN_PREFIX = '/_sim';

export interface TelegramSimOptions {
  /** The bot's token (`<bot id>:<secret>`); requests with any other answer 401 */
  token?: string;
  botUsername?: string;
  botFirstName?: string;
  /** Where message dates come from (ms since the epoch); the wall clock by default */
  now?: () => number;
  /** The longest long poll (`MAX_POLL_SECONDS` by default) */
  maxPollSeconds?: number;
  /** When set, the `/_sim` test API needs it in `x-sim-admin-token` */
  adminToken?: string;
  /** The first update's id (Telegram's are large numbers that only grow) */
  firstUpdateId?: number;
}

export interface Listening {
  /** The Bot API base URL, in place of https://api.telegram.org: calls go to `<url>/bot<token>/<method>` */
  url: string;
  port: number;
}

/** One Bot API call the stand-in answered: the method (lower case) and its parameters, never the token */
export interface BotApiCall {
  method: string;
  params: Record<string, unknown>;
  /** HTTP status of the answer */
  status: number;
}

/** A message the bot sent, with the parameters it was sent with */
export interface SentMessage extends TelegramMessage {
  parse_mode?: string;
  /** `reply_markup` as the bot sent it (any keyboard) */
  markup?: unknown;
}

/** An error the next calls of `method` (to `chatId`, when given) answer instead of working */
export interface FaultInput {
  method: string;
  chatId?: number;
  errorCode: number;
  /** Telegram's words by default (429: "Too Many Requests: retry after N") */
  description?: string;
  /** 429's `parameters.retry_after`, in seconds */
  retryAfter?: number;
  /** How many calls it answers (1 by default) */
  times?: number;
}

interface Fault extends Required<Pick<FaultInput, 'method' | 'errorCode' | 'times'>> {
  id: number;
  chatId?: number;
  description: string;
  retryAfter?: number;
}

interface PendingPoll {
  limit: number;
  finish(status: number, body: BotApiResponse<unknown>): void;
}

interface Waiter {
  ready(): boolean;
  resolve(): void;
}

type Reply = { status: number; body: BotApiResponse<unknown> };

const ok = <T>(result: T, description?: string): Reply => ({
  status: 200,
  body: description === undefined ? { ok: true, result } : { ok: true, result, description },
});
const fail = (e: { status: number; description: string }, retryAfter?: number): Reply => ({
  status: e.status,
  body: {
    ok: false,
    error_code: e.status,
    description: e.description,
    ...(retryAfter !== undefined ? { parameters: { retry_after: retryAfter } } : {}),
  },
});

function defaultDescription(code: number, retryAfter: number | undefined): string {
  if (code === 429) return `Too Many Requests: retry after ${retryAfter ?? 1}`;
  if (code === 403) return 'Forbidden: bot was blocked by the user';
  if (code === 400) return 'Bad Request: chat not found';
  if (code >= 500) return 'Internal Server Error';
  return `Error ${code}`;
}

/**
 * The Telegram Bot API on loopback, for one bot: `getMe`, `getUpdates` (offsets, limits, long polls, the 409s of a
 * second poller or a set webhook), `sendMessage`, `setWebhook` / `deleteWebhook` / `getWebhookInfo`, at
 * `/bot<token>/<method>` by GET or POST (query, JSON or a form), answering in Telegram's envelopes and words.
 * Tests drive the other side: `userSends` is a user writing to the bot, `sent` / `nextSent` what the bot wrote
 * back, `failNext` and `holdChat` a Telegram that refuses or stalls
 */
export class TelegramSim {
  readonly token: string;
  readonly bot: BotUser;
  readonly adminToken: string | undefined;
  /** Every Bot API call answered, oldest first */
  readonly calls: BotApiCall[] = [];
  readonly #server: http.Server;
  readonly #now: () => number;
  readonly #maxPollSeconds: number;
  /** Updates not yet confirmed by an offset past them */
  #updates: TelegramUpdate[] = [];
  #nextUpdateId: number;
  readonly #chats = new Map<number, { chat: TelegramChat; nextMessageId: number; sent: SentMessage[] }>();
  #poll: PendingPoll | undefined;
  #webhook: { url: string; secretToken?: string } | undefined;
  #faults: Fault[] = [];
  #nextFaultId = 1;
  readonly #holding = new Map<number, (() => void)[]>();
  #waiters: Waiter[] = [];
  /** Every message the bot sent, in the order it sent them */
  readonly #log: SentMessage[] = [];

  constructor(options: TelegramSimOptions = {}) {
    this.token = options.token ?? DEFAULT_TOKEN;
    const botId = /^(\d+):[A-Za-z0-9_-]+$/.exec(this.token)?.[1];
    if (!botId)
      throw new Error('A bot token is "<bot id>:<secret>" (digits, a colon, then letters, digits, - or _)');
    this.bot = {
      id: Number(botId),
      is_bot: true,
      first_name: options.botFirstName ?? 'Kestrel',
      username: options.botUsername ?? DEFAULT_BOT_USERNAME,
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
      can_connect_to_business: false,
      has_main_web_app: false,
    };
    this.adminToken = options.adminToken;
    this.#now = options.now ?? (() => Date.now());
    this.#maxPollSeconds = options.maxPollSeconds ?? MAX_POLL_SECONDS;
    this.#nextUpdateId = options.firstUpdateId ?? 500_000_001;
    this.#server = http.createServer((req, res) => {
      this.#handle(req, res).catch(() => {
        if (!res.headersSent)
          send(res, 500, { ok: false, error_code: 500, description: 'Internal Server Error' });
      });
    });
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<Listening> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(port, host, () => {
        this.#server.off('error', reject);
        resolve();
      });
    });
    const address = this.#server.address() as AddressInfo;
    const shown = host.includes(':') ? `[${host}]` : host;
    return { url: `http://${shown}:${address.port}`, port: address.port };
  }

  async close(): Promise<void> {
    this.#poll?.finish(200, { ok: true, result: [] });
    for (const chatId of [...this.#holding.keys()]) this.#release(chatId);
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /**
   * A user writes `text` to the bot from `chatId` (a private chat with them unless `chat` says otherwise): the
   * update waits for the bot's next getUpdates, or answers the one waiting
   */
  userSends(
    chatId: number,
    text: string,
    from: Partial<TelegramUser> = {},
    chat: Partial<TelegramChat> = {},
  ): TelegramUpdate {
    const user: TelegramUser = {
      id: chatId,
      is_bot: false,
      first_name: `User ${chatId}`,
      username: `user${chatId}`,
      language_code: 'en',
      ...from,
    };
    const state = this.#chat(chatId, chat, user);
    const command = /^\/[A-Za-z0-9_]+(@[A-Za-z0-9_]+)?/.exec(text);
    const entities: MessageEntity[] = command
      ? [{ type: 'bot_command', offset: 0, length: command[0].length }]
      : [];
    const update: TelegramUpdate = {
      update_id: this.#nextUpdateId++,
      message: {
        message_id: state.nextMessageId++,
        from: user,
        chat: state.chat,
        date: Math.floor(this.#now() / 1000),
        text,
        ...(entities.length > 0 ? { entities } : {}),
      },
    };
    this.#updates.push(update);
    const poll = this.#poll;
    if (poll) poll.finish(200, { ok: true, result: this.#updates.slice(0, poll.limit) });
    return update;
  }

  /** Messages the bot sent to `chatId`, oldest first */
  sent(chatId: number): SentMessage[] {
    return [...(this.#chats.get(chatId)?.sent ?? [])];
  }

  /** The next message the bot sends (to `chatId`, when given) after this call */
  async nextSent(chatId?: number, timeoutMs = 5_000): Promise<SentMessage> {
    const seen = chatId === undefined ? this.#log.length : this.sent(chatId).length;
    if (chatId === undefined) {
      await this.#wait(() => this.#log.length > seen, timeoutMs, 'a message from the bot');
      return this.#log[seen] as SentMessage;
    }
    const [message] = (await this.waitForSent(chatId, seen + 1, timeoutMs)).slice(seen);
    return message as SentMessage;
  }

  /** Resolves with the chat's sent messages once there are at least `count` */
  async waitForSent(chatId: number, count: number, timeoutMs = 5_000): Promise<SentMessage[]> {
    await this.#wait(
      () => this.sent(chatId).length >= count,
      timeoutMs,
      `${count} message(s) to chat ${chatId} (${this.sent(chatId).length} so far)`,
    );
    return this.sent(chatId);
  }

  /** Updates waiting to be confirmed (sent to the bot or not) */
  get pendingUpdates(): readonly TelegramUpdate[] {
    return [...this.#updates];
  }

  /** Whether a getUpdates long poll is held now (the bot waits for updates) */
  get polling(): boolean {
    return this.#poll !== undefined;
  }

  /** The webhook set by the bot, if any */
  get webhook(): { url: string } | undefined {
    return this.#webhook ? { url: this.#webhook.url } : undefined;
  }

  /** The next `times` calls of `fault.method` (to `fault.chatId`, when given) answer the error; its id */
  failNext(fault: FaultInput): number {
    const id = this.#nextFaultId++;
    this.#faults.push({
      id,
      method: fault.method.toLowerCase(),
      errorCode: fault.errorCode,
      times: fault.times ?? 1,
      description: fault.description ?? defaultDescription(fault.errorCode, fault.retryAfter),
      ...(fault.chatId !== undefined ? { chatId: fault.chatId } : {}),
      ...(fault.retryAfter !== undefined ? { retryAfter: fault.retryAfter } : {}),
    });
    return id;
  }

  clearFaults(): void {
    this.#faults = [];
  }

  /**
   * Holds every sendMessage to `chatId` unanswered (a stalled chat) until the returned function is called; the
   * held messages are then sent in order, unless their caller gave up meanwhile
   */
  holdChat(chatId: number): () => void {
    if (!this.#holding.has(chatId)) this.#holding.set(chatId, []);
    return () => this.#release(chatId);
  }

  #release(chatId: number): void {
    const held = this.#holding.get(chatId) ?? [];
    this.#holding.delete(chatId);
    for (const go of held) go();
  }

  #chat(chatId: number, chat: Partial<TelegramChat>, user: TelegramUser) {
    let state = this.#chats.get(chatId);
    if (!state) {
      const type = chat.type ?? 'private';
      const base: TelegramChat =
        type === 'private'
          ? {
              id: chatId,
              first_name: user.first_name,
              ...(user.last_name ? { last_name: user.last_name } : {}),
              ...(user.username ? { username: user.username } : {}),
              type,
            }
          : { id: chatId, title: chat.title ?? `Chat ${chatId}`, type };
      state = { chat: { ...base, ...chat, id: chatId, type }, nextMessageId: 1, sent: [] };
      this.#chats.set(chatId, state);
    }
    return state;
  }

  #wait(ready: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        ready,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(new Error(`telegram-sim: no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  #wake(): void {
    const ready = this.#waiters.filter((w) => w.ready());
    this.#waiters = this.#waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve();
  }

  async #handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://telegram-sim');
    let body: string;
    try {
      body = await readBody(req);
    } catch {
      send(res, 413, { ok: false, error_code: 413, description: 'Request Entity Too Large' });
      return;
    }
    if (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`)) {
      const { status, body: answer } = await this.#admin(req, url, body);
      send(res, status, answer);
      return;
    }
    const match = /^\/bot([^/]*)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) {
      send(res, 404, fail(BotApiErrors.notFound).body);
      return;
    }
    const [, token = '', rawMethod = ''] = match;
    const method = rawMethod.toLowerCase();
    let params: Record<string, unknown>;
    try {
      params = callParams(url, req.headers['content-type'], body);
    } catch (err) {
      const description = err instanceof BodyError ? err.message : 'Bad Request';
      this.#answer(res, method, {}, { status: 400, body: { ok: false, error_code: 400, description } });
      return;
    }
    if (!sameToken(token, this.token)) {
      this.#answer(res, method, params, fail(BotApiErrors.unauthorized));
      return;
    }
    const fault = this.#fault(method, params);
    if (fault) {
      this.#answer(res, method, params, fault);
      return;
    }
    switch (method) {
      case 'getme':
        this.#answer(res, method, params, ok(this.bot));
        return;
      case 'getupdates':
        this.#getUpdates(res, params);
        return;
      case 'sendmessage':
        this.#answer(res, method, params, await this.#sendMessage(res, params));
        return;
      case 'setwebhook':
        this.#answer(res, method, params, this.#setWebhook(params));
        return;
      case 'deletewebhook': {
        const had = this.#webhook !== undefined;
        this.#webhook = undefined;
        if (boolParam(params.drop_pending_updates)) this.#updates = [];
        this.#answer(
          res,
          method,
          params,
          ok(true, had ? 'Webhook was deleted' : 'Webhook is already deleted'),
        );
        return;
      }
      case 'getwebhookinfo': {
        const info: WebhookInfo = {
          url: this.#webhook?.url ?? '',
          has_custom_certificate: false,
          pending_update_count: this.#updates.length,
        };
        this.#answer(res, method, params, ok(info));
        return;
      }
      default:
        this.#answer(res, method, params, fail(BotApiErrors.notFound));
    }
  }

  #answer(res: http.ServerResponse, method: string, params: Record<string, unknown>, reply: Reply): void {
    this.calls.push({ method, params, status: reply.status });
    send(res, reply.status, reply.body);
  }

  #fault(method: string, params: Record<string, unknown>): Reply | undefined {
    const chatId = intParam(params.chat_id);
    const fault = this.#faults.find(
      (f) => f.method === method && (f.chatId === undefined || f.chatId === chatId),
    );
    if (!fault) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) this.#faults = this.#faults.filter((f) => f !== fault);
    return fail({ status: fault.errorCode, description: fault.description }, fault.retryAfter);
  }

  #getUpdates(res: http.ServerResponse, params: Record<string, unknown>): void {
    if (this.#webhook) {
      this.#answer(res, 'getupdates', params, fail(BotApiErrors.webhookActive));
      return;
    }
    // A second poller ends the first one, as Telegram does
    this.#poll?.finish(409, fail(BotApiErrors.terminatedByOtherGetUpdates).body);
    const offset = intParam(params.offset);
    if (offset !== undefined && offset < 0) this.#updates = this.#updates.slice(offset);
    else if (offset !== undefined) this.#updates = this.#updates.filter((u) => u.update_id >= offset);
    const limit = Math.min(UPDATES_LIMIT_MAX, Math.max(1, intParam(params.limit) ?? UPDATES_LIMIT_MAX));
    const timeout = Math.min(this.#maxPollSeconds, Math.max(0, intParam(params.timeout) ?? 0));
    if (this.#updates.length > 0 || timeout === 0) {
      this.#answer(res, 'getupdates', params, ok(this.#updates.slice(0, limit)));
      return;
    }
    let done = false;
    const poll: PendingPoll = {
      limit,
      finish: (status, body) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (this.#poll === poll) this.#poll = undefined;
        this.#answer(res, 'getupdates', params, { status, body });
      },
    };
    const timer = setTimeout(() => poll.finish(200, { ok: true, result: [] }), timeout * 1000);
    // The bot gave up on its request (closed the connection): nothing to answer
    res.on('close', () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (this.#poll === poll) this.#poll = undefined;
    });
    this.#poll = poll;
  }

  async #sendMessage(res: http.ServerResponse, params: Record<string, unknown>): Promise<Reply> {
    if (params.chat_id === undefined || params.chat_id === '') return fail(BotApiErrors.chatIdEmpty);
    const chatId = intParam(params.chat_id);
    const state = chatId === undefined ? undefined : this.#chats.get(chatId);
    // The bot may only write to a chat that wrote to it first
    if (chatId === undefined || !state) return fail(BotApiErrors.chatNotFound);
    const text = stringParam(params.text) ?? '';
    if (text.trim() === '') return fail(BotApiErrors.textEmpty);
    if (text.length > MESSAGE_MAX_LENGTH) return fail(BotApiErrors.textTooLong);
    const parseMode = stringParam(params.parse_mode);
    if (
      parseMode !== undefined &&
      parseMode !== '' &&
      !(PARSE_MODES as readonly string[]).includes(parseMode)
    )
      return fail(BotApiErrors.parseMode);
    let markup: unknown;
    if (params.reply_markup !== undefined) {
      try {
        markup =
          typeof params.reply_markup === 'string' ? JSON.parse(params.reply_markup) : params.reply_markup;
      } catch {
        return fail(BotApiErrors.replyMarkup);
      }
      if (typeof markup !== 'object' || markup === null) return fail(BotApiErrors.replyMarkup);
    }
    const held = this.#holding.get(chatId);
    if (held) {
      await new Promise<void>((resolve) => held.push(resolve));
      // The bot stopped waiting: this one was never sent
      if (res.destroyed || res.writableEnded) return fail({ status: 499, description: 'Client went away' });
    }
    const inline =
      markup && typeof markup === 'object' && 'inline_keyboard' in markup
        ? { reply_markup: { inline_keyboard: (markup as { inline_keyboard: unknown[][] }).inline_keyboard } }
        : {};
    const message: TelegramMessage = {
      message_id: state.nextMessageId++,
      from: {
        id: this.bot.id,
        is_bot: true,
        first_name: this.bot.first_name,
        ...(this.bot.username ? { username: this.bot.username } : {}),
      },
      chat: state.chat,
      date: Math.floor(this.#now() / 1000),
      text,
      ...inline,
    };
    const record: SentMessage = {
      ...message,
      ...(parseMode ? { parse_mode: parseMode } : {}),
      ...(markup !== undefined ? { markup } : {}),
    };
    state.sent.push(record);
    this.#log.push(record);
    this.#wake();
    return ok(message);
  }

  #setWebhook(params: Record<string, unknown>): Reply {
    const url = stringParam(params.url) ?? '';
    if (url === '') {
      this.#webhook = undefined;
      return ok(true, 'Webhook was deleted');
    }
    if (!/^https:\/\/[^\s]+$/i.test(url)) return fail(BotApiErrors.webhookHttps);
    const secretToken = stringParam(params.secret_token);
    this.#webhook = { url, ...(secretToken ? { secretToken } : {}) };
    // A poll waiting now conflicts with the webhook
    this.#poll?.finish(409, fail(BotApiErrors.webhookActive).body);
    return ok(true, 'Webhook was set');
  }

  /** The test API over HTTP (`/_sim`), for a driver in another process (the e2e suite) */
  async #admin(req: http.IncomingMessage, url: URL, raw: string): Promise<{ status: number; body: unknown }> {
    if (this.adminToken !== undefined) {
      const given = req.headers['x-sim-admin-token'];
      if (typeof given !== 'string' || !sameToken(given, this.adminToken))
        return { status: 401, body: { error: 'x-sim-admin-token is missing or wrong' } };
    }
    // A web page may post a form or text to loopback without asking; JSON needs a preflight never granted
    if (req.method !== 'GET' && !/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      return {
        status: 415,
        body: { error: 'The test API takes JSON bodies only (Content-Type: application/json)' },
      };
    let body: Record<string, unknown> = {};
    if (raw.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(raw);
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
          return { status: 400, body: { error: 'The request body must be a JSON object' } };
        body = parsed as Record<string, unknown>;
      } catch {
        return { status: 400, body: { error: 'The request body is not valid JSON' } };
      }
    }
    const path = url.pathname.slice(ADMIN_PREFIX.length);
    const sent = /^\/chats\/(-?\d+)\/sent$/.exec(path);
    if (req.method === 'GET' && path === '/health') return { status: 200, body: { ok: true, bot: this.bot } };
    if (req.method === 'POST' && path === '/updates') {
      const chatId = intParam(body.chatId);
      if (chatId === undefined) return { status: 400, body: { error: '"chatId" must be an integer' } };
      if (typeof body.text !== 'string' || body.text === '')
        return { status: 400, body: { error: '"text" must be a non-empty string' } };
      const from =
        typeof body.from === 'object' && body.from !== null ? (body.from as Partial<TelegramUser>) : {};
      const chat =
        typeof body.chat === 'object' && body.chat !== null ? (body.chat as Partial<TelegramChat>) : {};
      return { status: 201, body: { update: this.userSends(chatId, body.text, from, chat) } };
    }
    if (req.method === 'GET' && sent) {
      const chatId = Number(sent[1]);
      const after = intParam(url.searchParams.get('after') ?? undefined);
      const timeoutMs = Math.min(60_000, intParam(url.searchParams.get('timeoutMs') ?? undefined) ?? 10_000);
      if (after !== undefined) {
        try {
          await this.waitForSent(chatId, after + 1, timeoutMs);
        } catch (err) {
          return { status: 408, body: { error: (err as Error).message, messages: this.sent(chatId) } };
        }
      }
      return { status: 200, body: { messages: this.sent(chatId) } };
    }
    if (req.method === 'POST' && path === '/faults') {
      const method = typeof body.method === 'string' ? body.method : undefined;
      const errorCode = intParam(body.errorCode);
      if (!method || errorCode === undefined)
        return {
          status: 400,
          body: { error: '"method" (a string) and "errorCode" (an integer) are required' },
        };
      const chatId = intParam(body.chatId);
      const retryAfter = intParam(body.retryAfter);
      const times = intParam(body.times);
      const id = this.failNext({
        method,
        errorCode,
        ...(chatId !== undefined ? { chatId } : {}),
        ...(retryAfter !== undefined ? { retryAfter } : {}),
        ...(times !== undefined ? { times } : {}),
        ...(typeof body.description === 'string' ? { description: body.description } : {}),
      });
      return { status: 201, body: { id } };
    }
    if (req.method === 'DELETE' && path === '/faults') {
      this.clearFaults();
      return { status: 200, body: { ok: true } };
    }
    return { status: 404, body: { error: `No test API route ${req.method} ${url.pathname}` } };
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
