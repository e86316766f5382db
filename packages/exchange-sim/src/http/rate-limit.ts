import { errors } from '../common/errors';

/** What one request costs against the ORDERS limits */
export interface OrderCost {
  tenSeconds: number;
  minute: number;
}

export interface RateLimitOptions {
  /** REQUEST_WEIGHT per IP per minute (Binance: 2400) */
  weightPerMinute?: number;
  /** ORDERS per account per 10 s (Binance: 300) */
  ordersPer10s?: number;
  /** ORDERS per account per minute (Binance: 1200) */
  ordersPerMinute?: number;
  /** 429s an IP may collect in a minute before it is banned with 418 */
  ban429Threshold?: number;
  /** First ban length; each further ban doubles, up to 3 days as on Binance */
  firstBanMs?: number;
}

interface IpState {
  minute: number;
  used: number;
  rejected: number;
  bannedUntil: number;
  bans: number;
}

interface OrderState {
  tenSeconds: number;
  inTen: number;
  minute: number;
  inMinute: number;
}

const MAX_BAN_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Binance's limits, counted in fixed windows aligned to the clock (Binance resets the 1m counter on the minute):
 * request weight per IP with 429 past the limit and 418 bans for IPs that keep going, and order counts per account
 */
export class RateLimiter {
  readonly weightPerMinute: number;
  readonly ordersPer10s: number;
  readonly ordersPerMinute: number;
  readonly #ban429Threshold: number;
  readonly #firstBanMs: number;
  readonly #ips = new Map<string, IpState>();
  readonly #orders = new Map<number, OrderState>();

  constructor(options: RateLimitOptions = {}) {
    this.weightPerMinute = options.weightPerMinute ?? 2400;
    this.ordersPer10s = options.ordersPer10s ?? 300;
    this.ordersPerMinute = options.ordersPerMinute ?? 1200;
    this.#ban429Threshold = options.ban429Threshold ?? 5;
    this.#firstBanMs = options.firstBanMs ?? 2 * 60 * 1000;
  }

  #ip(ip: string, now: number): IpState {
    const minute = Math.floor(now / 60_000);
    let s = this.#ips.get(ip);
    if (!s) {
      s = { minute, used: 0, rejected: 0, bannedUntil: 0, bans: 0 };
      this.#ips.set(ip, s);
    }
    if (s.minute !== minute) {
      s.minute = minute;
      s.used = 0;
      s.rejected = 0;
    }
    return s;
  }

  /** Counts a request's weight; throws 418 while banned, 429 past the limit. Returns the weight used this minute. */
  spend(ip: string, weight: number, now: number): number {
    const s = this.#ip(ip, now);
    if (s.bannedUntil > now) throw errors.banned(ip, s.bannedUntil);
    s.used += weight;
    if (s.used > this.weightPerMinute) {
      s.rejected += 1;
      if (s.rejected > this.#ban429Threshold) {
        s.bannedUntil = now + Math.min(MAX_BAN_MS, this.#firstBanMs * 2 ** s.bans);
        s.bans += 1;
        throw errors.banned(ip, s.bannedUntil);
      }
      throw errors.tooManyRequests(ip, this.weightPerMinute);
    }
    return s.used;
  }

  used(ip: string, now: number): number {
    return this.#ip(ip, now).used;
  }

  #orderState(accountId: number, now: number): OrderState {
    const ten = Math.floor(now / 10_000);
    const minute = Math.floor(now / 60_000);
    let s = this.#orders.get(accountId);
    if (!s) {
      s = { tenSeconds: ten, inTen: 0, minute, inMinute: 0 };
      this.#orders.set(accountId, s);
    }
    if (s.tenSeconds !== ten) {
      s.tenSeconds = ten;
      s.inTen = 0;
    }
    if (s.minute !== minute) {
      s.minute = minute;
      s.inMinute = 0;
    }
    return s;
  }

  /**
   * Counts a request against the account's ORDERS limits (one new order by default; batches cost more in the 10 s
   * window); returns the counts for the response headers
   */
  countOrder(
    accountId: number,
    now: number,
    cost: OrderCost = { tenSeconds: 1, minute: 1 },
  ): { tenSeconds: number; minute: number } {
    const s = this.#orderState(accountId, now);
    if (s.inTen + cost.tenSeconds > this.ordersPer10s) throw errors.tooManyOrders(this.ordersPer10s, '10s');
    if (s.inMinute + cost.minute > this.ordersPerMinute)
      throw errors.tooManyOrders(this.ordersPerMinute, '1m');
    s.inTen += cost.tenSeconds;
    s.inMinute += cost.minute;
    return { tenSeconds: s.inTen, minute: s.inMinute };
  }
}
