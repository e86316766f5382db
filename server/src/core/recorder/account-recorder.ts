import type { FastifyBaseLogger } from 'fastify';
import type { Clock, Timer } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import type { CredentialsService } from '../credentials/credentials-service';
import type { TradingAccount } from '../environment/trading-account';
import type { ExchangeAdapter } from '../exchange/exchange-adapter';
import { readIncome } from '../exchange/income-pages';
import { importHistory } from './history-import';
import { type HistoryRepository, historyRepository } from './history-repository';
import type { AccountKeys, RecorderRepository } from './recorder-repository';

export const MINUTE_MS = 60_000;
/** How often the timer asks whether work is due (the work itself is paced by `app.clock`) */
export const RECORDER_TICK_MS = 5_000;
/** Income is read again this often per user (weight 30 a call: 100 users cost 600 of Binance's 2400 a minute) */
export const INCOME_SYNC_MS = 5 * MINUTE_MS;
/** Binance keeps income for three months: the first import reaches back this far */
export const INCOME_HISTORY_MS = 90 * 86_400_000;
/** Each round re-reads this much before the mark: entries Binance books a little late are still picked up */
export const INCOME_OVERLAP_MS = 10 * MINUTE_MS;
/**
 * Income pages read per user per round (weight 30 each): a long first import goes on a minute later, so it never
 * takes more than 150 of the minute's 2400 from the user's own requests
 */
export const INCOME_PAGES_PER_ROUND = 5;
/** Orders and fills are read again this often per user (2 calls of weight 5 per symbol) */
export const HISTORY_SYNC_MS = MINUTE_MS;
/** A history read imports first when the last import is older than this (and the recorder runs) */
export const HISTORY_FRESH_MS = 10_000;
/** A failing user is retried after 30 s, doubling up to 30 min */
export const BACKOFF_BASE_MS = 30_000;
export const BACKOFF_MAX_MS = 30 * MINUTE_MS;
/** Users handled at once in a round */
const CONCURRENCY = 4;

export interface AccountRecorderDeps {
  db: Database;
  repo: RecorderRepository;
  credentials: Pick<CredentialsService, 'accountsWithKeys' | 'storedKeys'>;
  exchange: Pick<ExchangeAdapter, 'account' | 'income' | 'tradesFrom' | 'ordersFrom'>;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The order and fill import's tables (default: the real repository) */
  history?: HistoryRepository;
}

/** Per-account state of this instance: what is done and when to try again */
interface AccountState {
  lastMinute?: number;
  nextIncomeAt: number;
  nextHistoryAt: number;
  /** When orders and fills were last imported by this instance */
  historyAt?: number;
  failures: number;
  retryAt: number;
}

/** The maps' key of an account */
const keyOf = (account: TradingAccount) => `${account.userId}|${account.environment}`;

/** Delay before retry number `failures` (1 = first failure) */
export function backoffMs(failures: number): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1), BACKOFF_MAX_MS);
}

/**
 * Records every connected account while the server runs: an equity snapshot each minute of `clock` and the
 * exchange's income history (imported once, 90 days back, then kept up to date every `INCOME_SYNC_MS`). An account
 * is a user's key of one environment (a user with a testnet and a mainnet key has two, recorded apart, each with
 * its own key: migration 016). Every instance on the database records; a snapshot is keyed by account and minute
 * and an income entry by account and Binance's (income type, tranId), so a second instance's copy is dropped by the
 * database; an instance skips the exchange
 * call for a minute another one already recorded, and the income read when another one synced less than
 * `INCOME_SYNC_MS` ago. Orders and fills are imported too (`history-import.ts`), every `HISTORY_SYNC_MS` and when a
 * history read finds them older than `HISTORY_FRESH_MS`. An account whose keys or exchange calls fail is logged
 * (no keys, no request) and left alone with a doubling backoff.
 */
export class AccountRecorder {
  private readonly accounts = new Map<string, AccountState>();
  /** An account's order and fill import in progress: a round and a reader share it */
  private readonly historyRuns = new Map<string, Promise<void>>();
  private readonly refreshing = new Map<string, Promise<void>>();
  private timer: Timer | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(private readonly deps: AccountRecorderDeps) {}

  /** Starts the timer; each firing runs `tick` */
  start(): void {
    if (this.closed || this.timer) return;
    this.timer = this.deps.clock.every(RECORDER_TICK_MS, () => void this.tick(), { unref: true });
    void this.tick();
  }

  /**
   * One round: every account with keys gets the snapshot of the current minute and, when due, an income sync. A call
   * during a round runs one more round after it (resolving then), so a caller that moved the clock sees its effect.
   * Public for tests, which move the clock and call it instead of waiting for the timer
   */
  tick(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.round();
      } while (this.again && !this.closed);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * Imports the account's new income now when the last import is older than `maxAgeMs` (a page about to read it
   * wants a trade closed a moment ago). Only once the first import has finished (that one is the timer's); callers
   * asking at once share one exchange call. Throws what the exchange or the vault threw
   */
  async refreshIncome(account: TradingAccount, maxAgeMs: number): Promise<void> {
    const key = keyOf(account);
    const pending = this.refreshing.get(key);
    if (pending) return pending;
    const run = (async () => {
      const now = this.deps.clock.now().getTime();
      const sync = await this.deps.repo.sync(this.deps.db, account);
      if (this.closed || sync?.synced_to == null || sync.synced_to > now - maxAgeMs) return;
      const keys = await this.keysOf(account);
      if (keys) await this.syncIncome(account, keys, now, maxAgeMs);
    })().finally(() => this.refreshing.delete(key));
    this.refreshing.set(key, run);
    return run;
  }

  /** Stops the timer and waits for the round in progress */
  async close(): Promise<void> {
    this.closed = true;
    this.timer?.cancel();
    this.timer = undefined;
    await this.running;
  }

  private async round(): Promise<void> {
    let accounts: TradingAccount[];
    try {
      accounts = await this.deps.credentials.accountsWithKeys();
    } catch (err) {
      this.deps.log.warn({ err: errorText(err) }, 'account recorder: listing accounts failed');
      return;
    }
    const listed = new Set(accounts.map(keyOf));
    for (const key of this.accounts.keys()) if (!listed.has(key)) this.accounts.delete(key);
    const queue = [...accounts];
    const worker = async () => {
      for (let a = queue.shift(); a !== undefined && !this.closed; a = queue.shift()) await this.record(a);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  }

  /**
   * The account's own key, or undefined when it was removed (or cannot be read): a key of another environment is
   * never used for it, so its rows can only come from its own exchange
   */
  private async keysOf(account: TradingAccount): Promise<AccountKeys | undefined> {
    const keys = await this.deps.credentials.storedKeys(account);
    return keys && { ...keys, environment: account.environment };
  }

  private async record(account: TradingAccount): Promise<void> {
    const { userId, environment } = account;
    const now = this.deps.clock.now().getTime();
    const state = this.state(account, now);
    if (now < state.retryAt) return;
    const minute = Math.floor(now / MINUTE_MS) * MINUTE_MS;
    const snapshotDue = state.lastMinute !== minute;
    const incomeDue = now >= state.nextIncomeAt;
    const historyDue = now >= state.nextHistoryAt;
    if (!snapshotDue && !incomeDue && !historyDue) return;
    try {
      const keys = await this.keysOf(account);
      // Keys removed (or unreadable) since the list was read: nothing to record
      if (!keys) return;
      if (snapshotDue) await this.snapshot(account, keys, minute, now);
      state.lastMinute = minute;
      if (incomeDue) state.nextIncomeAt = await this.syncIncome(account, keys, now);
      if (historyDue) await this.history(account, keys, now, HISTORY_SYNC_MS);
      state.failures = 0;
      state.retryAt = 0;
    } catch (err) {
      state.failures += 1;
      const delay = backoffMs(state.failures);
      state.retryAt = now + delay;
      this.deps.log.warn(
        { userId, environment, failures: state.failures, retryInMs: delay, err: errorText(err) },
        'account recorder: recording the account failed; retrying later',
      );
      await this.deps.repo
        .markFailed(this.deps.db, account, state.failures, state.retryAt, errorText(err), now)
        .catch(() => {});
    }
  }

  /**
   * Imports the account's orders and fills now when the recorder runs and this instance's last import is older
   * than `HISTORY_FRESH_MS`, so a history read shows a fill of a moment ago; shares an import in progress. Never
   * throws: a failure is logged and the stored rows are read as they are
   */
  async refreshHistory(account: TradingAccount): Promise<void> {
    if (!this.timer || this.closed) return;
    const now = this.deps.clock.now().getTime();
    const state = this.state(account, now);
    if (state.historyAt !== undefined && now - state.historyAt < HISTORY_FRESH_MS) return;
    if (now < state.retryAt) return;
    try {
      const keys = await this.keysOf(account);
      if (keys) await this.history(account, keys, now, HISTORY_FRESH_MS);
    } catch (err) {
      this.deps.log.warn(
        { userId: account.userId, environment: account.environment, err: errorText(err) },
        'account recorder: importing orders and fills failed',
      );
    }
  }

  private state(account: TradingAccount, now: number): AccountState {
    const key = keyOf(account);
    let state = this.accounts.get(key);
    if (!state) {
      state = { nextIncomeAt: now, nextHistoryAt: now, failures: 0, retryAt: 0 };
      this.accounts.set(key, state);
    }
    return state;
  }

  /** One import of orders and fills at a time per account; the next is due `HISTORY_SYNC_MS` later */
  private history(account: TradingAccount, keys: AccountKeys, now: number, freshMs: number): Promise<void> {
    const key = keyOf(account);
    const running = this.historyRuns.get(key);
    if (running) return running;
    const run = importHistory(
      { db: this.deps.db, repo: this.deps.history ?? historyRepository, exchange: this.deps.exchange },
      account.userId,
      keys,
      now,
      freshMs,
    )
      .then(() => {
        const state = this.state(account, now);
        state.historyAt = now;
        state.nextHistoryAt = now + HISTORY_SYNC_MS;
      })
      .finally(() => this.historyRuns.delete(key));
    this.historyRuns.set(key, run);
    return run;
  }

  private async snapshot(
    account: TradingAccount,
    keys: AccountKeys,
    minute: number,
    now: number,
  ): Promise<void> {
    // Another instance recorded this minute already: no exchange call
    if (await this.deps.repo.hasSnapshot(this.deps.db, account, minute)) return;
    const figures = await this.deps.exchange.account(keys);
    await this.deps.repo.insertSnapshot(this.deps.db, {
      user_id: account.userId,
      environment: account.environment,
      minute,
      taken_at: now,
      wallet_balance: figures.totalWalletBalance,
      unrealized_pnl: figures.totalUnrealizedPnl,
      margin_balance: figures.totalMarginBalance,
      maintenance_margin: figures.totalMaintMargin,
    });
  }

  /**
   * Reads the income since the mark (or 90 days back) and stores what is new; returns when the next sync is due
   * (now when cut short). Another instance's recent sync counts as this one's: no exchange call then
   */
  private async syncIncome(
    account: TradingAccount,
    keys: AccountKeys,
    now: number,
    maxAgeMs = INCOME_SYNC_MS,
  ): Promise<number> {
    const sync = await this.deps.repo.sync(this.deps.db, account);
    if (sync?.synced_to != null && sync.synced_to > now - maxAgeMs) return sync.synced_to + INCOME_SYNC_MS;
    const from =
      sync?.synced_to == null
        ? now - INCOME_HISTORY_MS
        : Math.max(now - INCOME_HISTORY_MS, sync.synced_to - INCOME_OVERLAP_MS);
    const { entries, complete } = await readIncome(
      this.deps.exchange,
      keys,
      { from, to: now },
      INCOME_PAGES_PER_ROUND,
    );
    await this.deps.repo.insertIncome(this.deps.db, account, entries);
    const reached = complete ? now : (entries[entries.length - 1]?.time ?? from);
    await this.deps.repo.markSynced(this.deps.db, account, reached, now);
    // An import cut short by its page budget goes on a minute later
    return complete ? now + INCOME_SYNC_MS : now + MINUTE_MS;
  }
}

/** What went wrong, without request details: adapter errors name the call and the exchange's reason, never keys */
function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
