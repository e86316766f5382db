import type { Clock, Timer } from '../../../lib/clock';
import { TelegramApiError, type TelegramClient } from './telegram-client';

/** Messages one chat may have waiting; beyond it the oldest waiting one is dropped (the newest news matters most) */
export const CHAT_QUEUE_MAX = 20;
/** Tries of one message: Telegram's 429s (after their retry_after) and failures with no answer or a 5xx */
export const SEND_TRIES = 4;
/** Longest wait a 429's retry_after is followed for; a longer one drops the message */
export const RETRY_AFTER_MAX_MS = 60_000;
/** Wait before trying again after no answer or a 5xx (doubling) */
const RETRY_BASE_MS = 1_000;

interface Queued {
  text: string;
  done: (sent: boolean) => void;
}

interface ChatQueue {
  items: Queued[];
  running: boolean;
}

export interface OutboxLog {
  warn(details: object, message: string): void;
}

/**
 * Messages to chats, one queue per chat: a chat's messages go in order, one at a time, and a chat that is slow or
 * rate limited (429: its `retry_after` is waited for on the clock) holds only its own queue, never another user's.
 * Failures are logged and dropped; nothing here throws to a caller
 */
export class TelegramOutbox {
  readonly #queues = new Map<number, ChatQueue>();
  readonly #drains = new Set<Promise<void>>();
  readonly #waits = new Set<{ timer: Timer; wake: () => void }>();
  #closed = false;

  constructor(
    private readonly client: Pick<TelegramClient, 'sendMessage'>,
    private readonly clock: Clock,
    private readonly log: OutboxLog,
  ) {}

  /** Queues `text` for `chatId`; resolves once it was sent (true) or given up (false) */
  send(chatId: number, text: string): Promise<boolean> {
    if (this.#closed) return Promise.resolve(false);
    return new Promise<boolean>((done) => {
      let queue = this.#queues.get(chatId);
      if (!queue) {
        queue = { items: [], running: false };
        this.#queues.set(chatId, queue);
      }
      if (queue.items.length >= CHAT_QUEUE_MAX) {
        queue.items.shift()?.done(false);
        this.log.warn({ chatId }, 'telegram: a chat has too many messages waiting; the oldest was dropped');
      }
      queue.items.push({ text, done });
      if (!queue.running) {
        const drain = this.#drain(chatId, queue);
        this.#drains.add(drain);
        void drain.finally(() => this.#drains.delete(drain));
      }
    });
  }

  /** Messages waiting or being sent, over every chat */
  get pending(): number {
    let n = 0;
    for (const q of this.#queues.values()) n += q.items.length + (q.running ? 1 : 0);
    return n;
  }

  /**
   * Stops: waiting messages are dropped, waits for a retry end, and the sends in flight are awaited (each has its
   * deadline), so the server's close is not held by a chat Telegram is slow with
   */
  async close(): Promise<void> {
    this.#closed = true;
    for (const queue of this.#queues.values()) for (const item of queue.items.splice(0)) item.done(false);
    for (const wait of this.#waits) {
      wait.timer.cancel();
      wait.wake();
    }
    this.#waits.clear();
    await Promise.all(this.#drains);
  }

  async #drain(chatId: number, queue: ChatQueue): Promise<void> {
    queue.running = true;
    try {
      for (let item = queue.items.shift(); item; item = queue.items.shift()) {
        item.done(await this.#deliver(chatId, item.text));
        if (this.#closed) break;
      }
    } finally {
      queue.running = false;
      if (queue.items.length === 0) this.#queues.delete(chatId);
    }
  }

  async #deliver(chatId: number, text: string): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.client.sendMessage(chatId, text);
        return true;
      } catch (err) {
        const status = err instanceof TelegramApiError ? err.status : null;
        const retryAfterMs =
          status === 429
            ? (err as TelegramApiError).retryAfterS !== undefined
              ? ((err as TelegramApiError).retryAfterS as number) * 1000
              : RETRY_BASE_MS
            : status === null || status >= 500
              ? RETRY_BASE_MS * 2 ** (attempt - 1)
              : undefined;
        const reason = err instanceof TelegramApiError ? err.message : 'Telegram sendMessage failed';
        if (
          retryAfterMs === undefined ||
          attempt >= SEND_TRIES ||
          retryAfterMs > RETRY_AFTER_MAX_MS ||
          this.#closed
        ) {
          this.log.warn({ chatId, attempt, reason }, 'telegram: a message was not delivered');
          return false;
        }
        await this.#wait(retryAfterMs);
        if (this.#closed) return false;
      }
    }
  }

  #wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const wait = {
        timer: this.clock.after(ms, () => {
          this.#waits.delete(wait);
          resolve();
        }),
        wake: resolve,
      };
      this.#waits.add(wait);
    });
  }
}
