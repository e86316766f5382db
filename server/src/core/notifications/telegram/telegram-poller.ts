import { randomUUID } from 'node:crypto';
import type { Clock, Timer } from '../../../lib/clock';
import type { Database } from '../../../lib/database/database';
import { TelegramApiError, type TelegramClient, type TelegramUpdate } from './telegram-client';
import type { TelegramRepository } from './telegram-repository';
import type { TelegramLog } from './telegram-service';

/** How long a getUpdates call waits for an update (Telegram holds it open; an update answers it at once) */
export const POLL_TIMEOUT_S = 25;
/** The poll's lease: longer than one long poll and its grace, renewed before each */
export const POLL_LEASE_MS = 90_000;
/** How often an instance that does not hold the lease asks again */
export const LEASE_RETRY_MS = 15_000;
/** Waits after a failed poll: no answer or a 5xx (doubling up to the last), a refused token, a webhook */
const BACKOFF_MS = { first: 1_000, max: 60_000, refused: 5 * 60_000, webhook: 60_000, conflict: 5_000 };

export interface TelegramPollerDeps {
  db: Database;
  repo: TelegramRepository;
  client: Pick<TelegramClient, 'botId' | 'getUpdates'>;
  clock: Clock;
  /** Takes one update (resolves once it is queued; its offset is already stored) */
  accept(update: TelegramUpdate): Promise<void>;
  log: TelegramLog;
  /** `POLL_TIMEOUT_S` by default */
  pollTimeoutS?: number;
}

/**
 * Reads the bot's updates with getUpdates long polls. One instance of a deployment polls (a lease row per bot,
 * `telegram_polls`; Telegram answers a second poller 409), from the offset stored there. Each update's offset is
 * stored before the update is handled, so a restart goes on from the next one: none answered twice, none skipped
 * that was not taken. Waits and backoffs run on the injected clock
 */
export class TelegramPoller {
  readonly #owner = randomUUID();
  #stopped = false;
  #loop: Promise<void> | undefined;
  readonly #abort = new AbortController();
  #pause: { timer: Timer; wake: () => void } | undefined;
  #failures = 0;

  constructor(private readonly deps: TelegramPollerDeps) {}

  start(): void {
    this.#loop ??= this.#run().catch((err: unknown) =>
      this.deps.log.error({ err }, 'telegram: the update poll stopped'),
    );
  }

  /** Ends the poll in flight and the loop, then hands the lease back so the next instance polls at once */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#abort.abort();
    if (this.#pause) {
      this.#pause.timer.cancel();
      this.#pause.wake();
    }
    await this.#loop;
  }

  async #run(): Promise<void> {
    const { db, repo, client, clock } = this.deps;
    const botId = client.botId;
    try {
      while (!this.#stopped) {
        const now = clock.now();
        let offset: number | undefined;
        try {
          offset = await repo.leasePoll(db, botId, this.#owner, now, new Date(now.getTime() + POLL_LEASE_MS));
        } catch (err) {
          this.deps.log.error({ err }, 'telegram: the poll lease could not be read');
          await this.#wait(BACKOFF_MS.conflict);
          continue;
        }
        if (offset === undefined) {
          await this.#wait(LEASE_RETRY_MS);
          continue;
        }
        let updates: TelegramUpdate[];
        try {
          updates = await client.getUpdates(
            offset,
            this.deps.pollTimeoutS ?? POLL_TIMEOUT_S,
            this.#abort.signal,
          );
          this.#failures = 0;
        } catch (err) {
          if (this.#stopped) break;
          await this.#wait(this.#backoff(err));
          continue;
        }
        for (const update of updates) {
          if (this.#stopped) break;
          // Stored first: a crash while it is handled loses this one command rather than running it twice
          if (!(await repo.claimOffset(db, botId, this.#owner, update.update_id + 1))) break;
          await this.deps.accept(update);
        }
      }
    } finally {
      await repo.releasePoll(db, botId, this.#owner).catch(() => {});
    }
  }

  /** How long to wait after a failed poll, told in the log in words that never hold the request URL */
  #backoff(err: unknown): number {
    this.#failures++;
    const reason = err instanceof TelegramApiError ? err.message : 'Telegram getUpdates failed';
    const status = err instanceof TelegramApiError ? err.status : null;
    const { log } = this.deps;
    if (status === 401 || status === 404) {
      log.error(
        { reason },
        'telegram: Telegram refused the bot token (KESTREL_TELEGRAM_BOT_TOKEN); asking again later',
      );
      return BACKOFF_MS.refused;
    }
    if (status === 409 && /webhook/i.test(reason)) {
      log.error(
        { reason },
        'telegram: a webhook is set for this bot, so its updates go there and cannot be polled; delete it (deleteWebhook) to use the bot with Kestrel',
      );
      return BACKOFF_MS.webhook;
    }
    if (status === 409) {
      if (this.#failures === 1) log.warn({ reason }, 'telegram: another program polls this bot’s updates');
      return BACKOFF_MS.conflict;
    }
    if (status === 429 && err instanceof TelegramApiError && err.retryAfterS !== undefined)
      return Math.min(BACKOFF_MS.max, err.retryAfterS * 1000);
    if (this.#failures === 1 || this.#failures % 10 === 0)
      log.warn({ reason, failures: this.#failures }, 'telegram: the update poll failed; trying again');
    return Math.min(BACKOFF_MS.max, BACKOFF_MS.first * 2 ** (this.#failures - 1));
  }

  #wait(ms: number): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        this.#pause = undefined;
        resolve();
      };
      this.#pause = { timer: this.deps.clock.after(ms, done, { unref: true }), wake: done };
    });
  }
}
