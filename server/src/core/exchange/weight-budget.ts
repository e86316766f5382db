import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The lanes of the server's exchange budget. `trade`: orders, cancels, leverage, the kill switch and the reads an
 * order cannot go without (the risk guard's, a lost answer's lookup): a share of the minute is kept for them alone.
 * `interactive`: what a user is waiting for (market data, account pages), each user within a fair share.
 * `background`: backtest downloads, which only use what interactive callers leave and wait rather than fail.
 */
export type Lane = 'trade' | 'interactive' | 'background';

/** Who an exchange call is for, set around a unit of work by `exchangeCallsAs` */
export interface CallContext {
  /** The user the weight is charged to (`user:<id>`); signed calls without one are charged to their account */
  caller?: string;
  lane?: Lane;
  /** Background calls wait for the next minute when the budget is spent; this ends the wait */
  signal?: AbortSignal;
  /**
   * Work that takes risk off (the kill switch): its calls, reads included, are tried even while the circuit breaker
   * is open, with a shorter timeout
   */
  protective?: boolean;
}

const context = new AsyncLocalStorage<CallContext>();

/** Runs `work` with its exchange calls attributed to `ctx` (fields not given are inherited from an outer call) */
export function exchangeCallsAs<T>(ctx: CallContext, work: () => Promise<T>): Promise<T> {
  return context.run({ ...context.getStore(), ...ctx }, work);
}

/** The context of the exchange call being made, if any */
export function currentCallContext(): CallContext {
  return context.getStore() ?? {};
}

/** The caller id of a signed-in user */
export const userCaller = (userId: string) => `user:${userId}`;

export interface WeightBudgetOptions {
  /** The IP's REQUEST_WEIGHT a minute (Binance: 2400) */
  limit: number;
  /** Most one user may spend in a minute, as a share of the limit */
  userShare?: number;
  /** Market data and account reads stop here; the rest up to `tradeShare` is kept for trading calls */
  interactiveShare?: number;
  /** Backtest downloads stop here and wait for the next minute */
  backgroundShare?: number;
  /** Even trading calls stop here (other processes on the IP, a late header) rather than meet Binance's 429 */
  tradeShare?: number;
  /** The account's ORDERS limits (Binance: 300 per 10 s, 1200 a minute) */
  ordersPer10s?: number;
  ordersPerMinute?: number;
}

export type Admission =
  | { ok: true }
  | {
      ok: false;
      /** Until the exchange's minute (or the account's order window) turns, ms */
      retryAfterMs: number;
      message: string;
    };

interface OrderCounts {
  tenSecondsWindow: number;
  tenSeconds: number;
  minuteWindow: number;
  minute: number;
}

const MINUTE_MS = 60_000;
const TEN_SECONDS_MS = 10_000;

/**
 * The request weight of the server's IP for the current exchange minute, split fairly. Every call is admitted
 * (counted at once, so a burst cannot overshoot before the answers come back) or refused at once with the time to
 * wait: nothing here sleeps. The exchange's `X-MBX-USED-WEIGHT-1M` raises the running total when the IP spent more
 * than we counted (another process, another instance on the same IP).
 *
 * Fairness: a user may spend at most `userShare` of the limit a minute on interactive reads; once half the
 * interactive share is spent, a user already above an equal part of it (interactive share ÷ (users seen this
 * minute + 1), one part kept for a newcomer) is refused too, so a few heavy users cannot take it all from the light
 * ones. Trading calls and downloads do not count against a user's share: they have their own caps.
 */
export class WeightBudget {
  readonly limit: number;
  readonly #userCap: number;
  readonly #interactiveCap: number;
  readonly #backgroundCap: number;
  readonly #tradeCap: number;
  readonly #ordersPer10s: number;
  readonly #ordersPerMinute: number;
  #minute = Number.NEGATIVE_INFINITY;
  #used = 0;
  /** Weight of calls admitted and not answered yet (a header does not count them) */
  #pending = 0;
  readonly #byCaller = new Map<string, number>();
  readonly #orders = new Map<string, OrderCounts>();

  constructor(options: WeightBudgetOptions) {
    this.limit = options.limit;
    this.#userCap = Math.floor(options.limit * (options.userShare ?? 0.4));
    this.#interactiveCap = Math.floor(options.limit * (options.interactiveShare ?? 0.8));
    this.#backgroundCap = Math.floor(options.limit * (options.backgroundShare ?? 0.5));
    this.#tradeCap = Math.floor(options.limit * (options.tradeShare ?? 0.97));
    this.#ordersPer10s = options.ordersPer10s ?? 300;
    this.#ordersPerMinute = options.ordersPerMinute ?? 1200;
  }

  /** Weight spent in the current minute as far as we know (counted and reported) */
  used(exchangeNow: number): number {
    this.#roll(exchangeNow);
    return this.#used;
  }

  /** Weight `caller` spent in the current minute */
  usedBy(caller: string, exchangeNow: number): number {
    this.#roll(exchangeNow);
    return this.#byCaller.get(caller) ?? 0;
  }

  /** Admits a call of `weight` for `caller` in `lane` (and counts it), or says why not and for how long */
  admit(lane: Lane, caller: string, weight: number, exchangeNow: number): Admission {
    this.#roll(exchangeNow);
    const retryAfterMs = Math.max(1000, (this.#minute + 1) * MINUTE_MS - exchangeNow);
    const secs = Math.ceil(retryAfterMs / 1000);
    const after = this.#used + weight;
    const mine = this.#byCaller.get(caller) ?? 0;
    if (lane === 'trade') {
      // An order costs no IP weight (Binance counts it against the account's order limits instead)
      if (weight > 0 && after > this.#tradeCap) {
        return {
          ok: false,
          retryAfterMs,
          message: `The server has used ${this.#used} of Binance's ${this.limit} request weight this minute; retry in ${secs} s`,
        };
      }
    } else if (lane === 'background') {
      if (after > this.#backgroundCap) {
        return {
          ok: false,
          retryAfterMs,
          message: `Downloads wait for the next exchange minute (in ${secs} s) so interactive calls keep their share`,
        };
      }
    } else {
      if (mine + weight > this.#userCap) {
        return {
          ok: false,
          retryAfterMs,
          message: `You have used your share of the exchange's request budget this minute (${mine} of ${this.#userCap} weight); retry in ${secs} s`,
        };
      }
      // One part per user seen this minute plus one kept for whoever comes next
      const users = this.#byCaller.size + (this.#byCaller.has(caller) ? 0 : 1);
      const part = Math.floor(this.#interactiveCap / (users + 1));
      if (this.#used >= this.#interactiveCap / 2 && mine + weight > part) {
        return {
          ok: false,
          retryAfterMs,
          message: `The exchange's request budget is shared by ${users} users this minute and you have used your part (${mine} of ${part} weight); retry in ${secs} s`,
        };
      }
      if (after > this.#interactiveCap) {
        return {
          ok: false,
          retryAfterMs,
          message: `The server has used ${this.#used} of Binance's ${this.limit} request weight this minute; market data and account reads resume in ${secs} s (orders and cancels still go through)`,
        };
      }
    }
    this.#used = after;
    this.#pending += weight;
    // Trading and downloads have their own caps: a user's share is what they spend on interactive reads
    if (lane === 'interactive') this.#byCaller.set(caller, mine + weight);
    return { ok: true };
  }

  /**
   * An admitted call was answered (or failed): it is no longer pending, and the exchange's count of the IP's
   * weight (which includes it) raises ours when higher
   */
  settle(weight: number, reportedUsed: number | undefined, exchangeNow: number): void {
    this.#pending = Math.max(0, this.#pending - weight);
    this.#roll(exchangeNow);
    if (reportedUsed !== undefined) this.#used = Math.max(this.#used, reportedUsed + this.#pending);
  }

  /** Whether `account` may place another order now (Binance's ORDERS limits), else for how long it must wait */
  admitOrder(account: string, exchangeNow: number): Admission {
    const c = this.#orderCounts(account, exchangeNow);
    if (c.tenSeconds >= this.#ordersPer10s) {
      const retryAfterMs = Math.max(1000, (c.tenSecondsWindow + 1) * TEN_SECONDS_MS - exchangeNow);
      return {
        ok: false,
        retryAfterMs,
        message: `This account has placed ${c.tenSeconds} orders in 10 s, Binance's limit is ${this.#ordersPer10s}; retry in ${Math.ceil(retryAfterMs / 1000)} s`,
      };
    }
    if (c.minute >= this.#ordersPerMinute) {
      const retryAfterMs = Math.max(1000, (c.minuteWindow + 1) * MINUTE_MS - exchangeNow);
      return {
        ok: false,
        retryAfterMs,
        message: `This account has placed ${c.minute} orders this minute, Binance's limit is ${this.#ordersPerMinute}; retry in ${Math.ceil(retryAfterMs / 1000)} s`,
      };
    }
    c.tenSeconds += 1;
    c.minute += 1;
    return { ok: true };
  }

  /** The account's order counts as the exchange reported them (`X-MBX-ORDER-COUNT-10S` / `-1M`) */
  noteOrderCounts(
    account: string,
    reported: { tenSeconds?: number; minute?: number },
    exchangeNow: number,
  ): void {
    const c = this.#orderCounts(account, exchangeNow);
    if (reported.tenSeconds !== undefined) c.tenSeconds = Math.max(c.tenSeconds, reported.tenSeconds);
    if (reported.minute !== undefined) c.minute = Math.max(c.minute, reported.minute);
  }

  #orderCounts(account: string, exchangeNow: number): OrderCounts {
    const tenSecondsWindow = Math.floor(exchangeNow / TEN_SECONDS_MS);
    const minuteWindow = Math.floor(exchangeNow / MINUTE_MS);
    let c = this.#orders.get(account);
    if (!c) {
      c = { tenSecondsWindow, tenSeconds: 0, minuteWindow, minute: 0 };
      this.#orders.set(account, c);
    }
    if (c.tenSecondsWindow !== tenSecondsWindow) Object.assign(c, { tenSecondsWindow, tenSeconds: 0 });
    if (c.minuteWindow !== minuteWindow) Object.assign(c, { minuteWindow, minute: 0 });
    return c;
  }

  /** A new exchange minute starts every count again (accounts idle for a minute are forgotten) */
  #roll(exchangeNow: number): void {
    const minute = Math.floor(exchangeNow / MINUTE_MS);
    if (minute === this.#minute) return;
    this.#minute = minute;
    this.#used = 0;
    this.#byCaller.clear();
    for (const [account, c] of this.#orders) if (c.minuteWindow < minute - 1) this.#orders.delete(account);
  }
}
