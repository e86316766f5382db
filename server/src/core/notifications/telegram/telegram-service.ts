import { randomInt } from 'node:crypto';
import {
  NOTIFICATION_EVENT_LABELS,
  type NotificationEvent,
  TELEGRAM_DEFAULT_EVENTS,
  TELEGRAM_LINK_CODE_ALPHABET,
  TELEGRAM_LINK_CODE_LENGTH,
  TELEGRAM_LINK_CODE_TTL_MS,
  type TelegramChat,
  type TelegramCommandRecord,
  type TelegramEvent,
  TelegramEventSchema,
  type TelegramLinkCode,
  type TelegramSettings,
} from '@kestrel/contracts/account';
import type { Clock } from '../../../lib/clock';
import type { Database } from '../../../lib/database/database';
import { HttpError } from '../../../lib/http-error';
import type { NotificationChannel, NotificationContent } from '../notification-service';
import type { TelegramClient, TelegramUpdate } from './telegram-client';
import type { TelegramCommands } from './telegram-commands';
import type { TelegramOutbox } from './telegram-outbox';
import type { TelegramChatRow, TelegramRepository } from './telegram-repository';

/** A notice's text in a chat: its title and message, cut to a phone screen */
export const NOTICE_MAX_CHARS = 1_000;
/** Commands of one chat waiting to be handled; more are not answered (a flood holds only its own chat) */
const CHAT_INBOX_MAX = 10;
/** Chats whose commands are handled at once; the poll waits for one to finish beyond it */
const CHATS_AT_ONCE = 16;

export const UNLINKED_ANSWER = "Send /start <code> from Kestrel's Account page to link this chat.";
const NEW_CODE = "Get a new one on Kestrel's Account page and send /start <code>.";

export interface TelegramLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface TelegramServiceDeps {
  db: Database;
  repo: TelegramRepository;
  clock: Clock;
  /** The Bot API; undefined when the operator set no token (the channel is off) */
  client: Pick<TelegramClient, 'getMe'> | undefined;
  outbox: Pick<TelegramOutbox, 'send'> | undefined;
  commands: TelegramCommands;
  /** How a chat is told whose account it is linked to (the user's name and email) */
  nameOf: (userId: string) => Promise<string | undefined>;
  log: TelegramLog;
}

/** A link code as it is typed back: the alphabet's characters, any case */
const CODE_PATTERN = new RegExp(`^[${TELEGRAM_LINK_CODE_ALPHABET}]{${TELEGRAM_LINK_CODE_LENGTH}}$`, 'i');

/** `/name@bot args` → name and args; undefined for text that is no command */
function parseCommand(text: string): { name: string; args: string } | undefined {
  const m = /^\/([A-Za-z0-9_]{1,32})(?:@[A-Za-z0-9_]+)?(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: (m[1] as string).toLowerCase(), args: (m[2] ?? '').trim() } : undefined;
}

const eventsOf = (row: TelegramChatRow): TelegramEvent[] =>
  row.events.flatMap((e) => {
    const parsed = TelegramEventSchema.safeParse(e);
    return parsed.success ? [parsed.data] : [];
  });

const toChat = (row: TelegramChatRow): TelegramChat => ({
  username: row.username,
  linkedAt: row.linked_at.getTime(),
  events: eventsOf(row),
});

/**
 * The Telegram channel's rules: link codes (one-time, 10 minutes, one live per user), the linked chat and its
 * chosen events, notices to it (`deliver`, the notification service's channel), and the chat's messages (`accept`,
 * from the poll): `/start <code>` links, other commands run from the registry the edge fills and are recorded with
 * their answers. Commands of one chat run in order; chats do not wait for each other
 */
export class TelegramService implements NotificationChannel {
  #botUsername: string | undefined;
  readonly #inbox = new Map<number, { tail: Promise<void>; waiting: number }>();
  readonly #running = new Set<Promise<void>>();

  constructor(private readonly deps: TelegramServiceDeps) {}

  get enabled(): boolean {
    return this.deps.client !== undefined;
  }

  /** The bot's user name from getMe (asked once; undefined while Telegram has not answered) */
  async botUsername(): Promise<string | undefined> {
    if (this.#botUsername === undefined && this.deps.client) {
      try {
        this.#botUsername = (await this.deps.client.getMe()).username;
      } catch (err) {
        this.deps.log.warn({ reason: (err as Error).message }, 'telegram: getMe failed');
      }
    }
    return this.#botUsername;
  }

  async settings(userId: string): Promise<TelegramSettings> {
    if (!this.enabled) return { enabled: false, chat: null };
    const [botUsername, row] = await Promise.all([
      this.botUsername(),
      this.deps.repo.chatOfUser(this.deps.db, userId),
    ]);
    return { enabled: true, ...(botUsername ? { botUsername } : {}), chat: row ? toChat(row) : null };
  }

  /** A new one-time code for the user (their earlier one stops working) */
  async createLinkCode(userId: string): Promise<TelegramLinkCode> {
    if (!this.enabled)
      throw new HttpError(
        409,
        'TELEGRAM_OFF',
        'This server has no Telegram bot: its operator sets one up with KESTREL_TELEGRAM_BOT_TOKEN',
      );
    const botUsername = await this.botUsername();
    if (!botUsername)
      throw new HttpError(503, 'TELEGRAM_UNREACHABLE', 'Telegram did not answer: try again in a moment');
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + TELEGRAM_LINK_CODE_TTL_MS);
    for (;;) {
      const code = Array.from(
        { length: TELEGRAM_LINK_CODE_LENGTH },
        () => TELEGRAM_LINK_CODE_ALPHABET[randomInt(TELEGRAM_LINK_CODE_ALPHABET.length)],
      ).join('');
      if (await this.deps.repo.replaceCode(this.deps.db, userId, code, expiresAt, now))
        return {
          code,
          expiresAt: expiresAt.getTime(),
          botUsername,
          deepLink: `https://t.me/${botUsername}?start=${code}`,
        };
    }
  }

  async setEvents(userId: string, events: readonly TelegramEvent[]): Promise<TelegramChat> {
    const row = await this.deps.repo.setEvents(this.deps.db, userId, events);
    if (!row) throw notLinked();
    return toChat(row);
  }

  async unlink(userId: string): Promise<void> {
    if (!(await this.deps.repo.unlink(this.deps.db, userId))) throw notLinked();
  }

  async commandRecord(userId: string, limit: number): Promise<TelegramCommandRecord[]> {
    return (await this.deps.repo.commands(this.deps.db, userId, limit)).map((r) => ({
      command: r.command,
      answer: r.answer,
      at: r.at.getTime(),
    }));
  }

  /**
   * The notification service's channel: a notice of an event the user chose goes to their chat (queued per chat,
   * never awaited: a slow Telegram holds no emitter). Never throws
   */
  async deliver(userId: string, event: NotificationEvent, content: NotificationContent): Promise<void> {
    const { outbox } = this.deps;
    if (!outbox) return;
    try {
      const row = await this.deps.repo.chatOfUser(this.deps.db, userId);
      if (!row?.events.includes(event)) return;
      const text = `${content.title}\n${content.message}`.trim();
      void outbox.send(
        row.chat_id,
        text.length > NOTICE_MAX_CHARS ? `${text.slice(0, NOTICE_MAX_CHARS - 1)}…` : text,
      );
    } catch (err) {
      this.deps.log.error({ err, userId, event }, 'telegram: a notice could not be queued');
    }
  }

  /**
   * Takes an update from the poll: queued behind the same chat's earlier ones and handled apart from other chats.
   * Resolves once it is queued (waiting only when `CHATS_AT_ONCE` chats are busy)
   */
  async accept(update: TelegramUpdate): Promise<void> {
    const chatId = update.message?.chat.id;
    if (chatId === undefined || update.message?.text === undefined) return;
    let inbox = this.#inbox.get(chatId);
    if (!inbox) {
      while (this.#inbox.size >= CHATS_AT_ONCE) await Promise.race(this.#running);
      inbox = { tail: Promise.resolve(), waiting: 0 };
      this.#inbox.set(chatId, inbox);
    }
    if (inbox.waiting >= CHAT_INBOX_MAX) {
      this.deps.log.warn(
        { chatId },
        'telegram: a chat sent more commands than are handled at once; one was left',
      );
      return;
    }
    const box = inbox;
    box.waiting++;
    const run = box.tail.then(async () => {
      try {
        await this.#handle(update);
      } catch (err) {
        this.deps.log.error({ err, chatId }, 'telegram: a message could not be handled');
      } finally {
        box.waiting--;
        if (box.waiting === 0 && this.#inbox.get(chatId) === box) this.#inbox.delete(chatId);
      }
    });
    box.tail = run;
    this.#running.add(run);
    void run.finally(() => this.#running.delete(run));
  }

  /** Waits for the messages being handled (the server's close: a kill switch under way finishes) */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
  }

  async #handle(update: TelegramUpdate): Promise<void> {
    const message = update.message;
    if (!message?.text) return;
    const chatId = message.chat.id;
    const text = message.text.trim();
    const command = parseCommand(text);
    const code =
      command?.name === 'start' && CODE_PATTERN.test(command.args)
        ? command.args
        : !command && CODE_PATTERN.test(text)
          ? text
          : undefined;
    if (message.chat.type !== 'private') {
      if (command || code) this.#reply(chatId, await this.#privateOnly());
      return;
    }
    if (code) {
      await this.#link(
        chatId,
        message.chat.username ?? message.from?.username ?? null,
        code,
        update.update_id,
      );
      return;
    }
    const row = await this.deps.repo.chatById(this.deps.db, chatId);
    if (!row) {
      this.#reply(chatId, UNLINKED_ANSWER);
      return;
    }
    const answer = await this.#answer(row, command);
    await this.deps.repo.recordCommand(this.deps.db, {
      userId: row.user_id,
      chatId,
      updateId: update.update_id,
      command: text.slice(0, 500),
      answer,
      at: this.deps.clock.now(),
    });
    this.#reply(chatId, answer);
  }

  async #answer(row: TelegramChatRow, command: { name: string; args: string } | undefined): Promise<string> {
    if (!command) return `Send a command.\n\n${this.#help()}`;
    if (command.name === 'help') return this.#help();
    if (command.name === 'start')
      return `This chat is linked to ${await this.#who(row.user_id)}. Send /help for the commands.`;
    const handler = this.deps.commands.get(command.name);
    if (!handler) return `Unknown command /${command.name}.\n\n${this.#help()}`;
    try {
      return await handler.run({ userId: row.user_id, chatId: row.chat_id, args: command.args });
    } catch (err) {
      if (err instanceof HttpError && err.statusCode < 500) return err.message;
      this.deps.log.error({ err, command: command.name }, 'telegram: a command failed');
      return `/${command.name} failed: Kestrel could not do it now. Try again in a moment.`;
    }
  }

  #help(): string {
    const lines = this.deps.commands.list().map((c) => `${c.usage ?? `/${c.name}`} – ${c.summary}`);
    return ['Kestrel commands:', ...lines, '/help – this list'].join('\n');
  }

  async #link(chatId: number, username: string | null, code: string, updateId: number): Promise<void> {
    const { db, repo, clock } = this.deps;
    const taken = await repo.takeCode(db, code.toUpperCase());
    const now = clock.now();
    if (!taken) {
      this.#reply(chatId, `That code is unknown or was used already. ${NEW_CODE}`);
      return;
    }
    if (taken.expires_at.getTime() <= now.getTime()) {
      this.#reply(chatId, `That code has expired (a code lasts 10 minutes). ${NEW_CODE}`);
      return;
    }
    const earlier = await repo.chatOfUser(db, taken.user_id);
    const events = earlier ? eventsOf(earlier) : [...TELEGRAM_DEFAULT_EVENTS];
    await db.transaction((tx) =>
      repo.link(tx, { user_id: taken.user_id, chat_id: chatId, username, events, linked_at: now }),
    );
    const told =
      events.length > 0 ? events.map((e) => NOTIFICATION_EVENT_LABELS[e]).join(', ') : 'nothing yet';
    const answer = `Linked to ${await this.#who(taken.user_id)}. This chat is told about: ${told}. Send /help for the commands.`;
    await repo.recordCommand(db, {
      userId: taken.user_id,
      chatId,
      updateId,
      command: '/start',
      answer,
      at: now,
    });
    this.deps.log.info({ userId: taken.user_id }, 'telegram: a chat was linked');
    this.#reply(chatId, answer);
  }

  async #who(userId: string): Promise<string> {
    return (await this.deps.nameOf(userId).catch(() => undefined)) ?? 'your Kestrel account';
  }

  async #privateOnly(): Promise<string> {
    const bot = await this.botUsername();
    return `Kestrel answers in a private chat only: open a chat with ${bot ? `@${bot}` : 'the bot'} and send /start <code> there.`;
  }

  /** Replies go through the outbox like notices: in order per chat, and a slow chat holds only itself */
  #reply(chatId: number, text: string): void {
    void this.deps.outbox?.send(chatId, text);
  }
}

const notLinked = () =>
  new HttpError(404, 'TELEGRAM_NOT_LINKED', 'No Telegram chat is linked to this account');
