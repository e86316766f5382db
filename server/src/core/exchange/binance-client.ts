import { createHash, createHmac } from 'node:crypto';
import type { z } from 'zod';
import { type Clock, sleep, systemClock } from '../../lib/clock';
import { ErrorBodySchema, readAnswer, ServerTimeSchema } from './binance-schemas';
import {
  countsAsOrder,
  isProtectiveCall,
  isTradingCall,
  type Params,
  requestWeight,
} from './binance-weights';
import { CircuitBreaker, type CircuitBreakerOptions, ExchangeCircuitOpenError } from './circuit-breaker';
import {
  ExchangeApiError,
  type ExchangeKeys,
  ExchangeRateLimitError,
  ExchangeUnavailableError,
} from './exchange-adapter';
import { parseJsonBigSafe } from './json-bigint';
import { cacheKey, freshnessMs, MarketDataCache } from './market-data-cache';
import { currentCallContext, type Lane, WeightBudget, type WeightBudgetOptions } from './weight-budget';

export type { Params } from './binance-weights';

/**
 * A call that takes risk off, tried while the host's or its key's circuit is open, waits at most this long: the host
 * has been failing, and the kill switch has more calls to try after it
 */
const PROTECTIVE_TIMEOUT_MS = 5_000;

export interface BinanceClientOptions {
  /** fapi base URL, e.g. https://fapi.binance.com */
  restUrl: string;
  /** Spot/wallet host for /sapi (api.binance.com); absent where there is none (testnet) */
  walletUrl?: string;
  /** Per-request timeout, ms */
  timeoutMs?: number;
  recvWindowMs?: number;
  /** REQUEST_WEIGHT per minute of the IP (Binance: 2400) */
  weightLimit?: number;
  /** How the minute's weight is shared (`weight-budget.ts`; defaults there) */
  budget?: Omit<WeightBudgetOptions, 'limit'>;
  /** Re-measure the clock offset this often, ms */
  timeSyncEveryMs?: number;
  /**
   * Local time of the client: signing (with the measured offset), the weight minute, cache ages, the breaker's
   * cool-down and a download's wait for the next minute. The system clock by default: these are durations of real
   * network I/O, so the app's clock, which a test may hold still, is not the default
   */
  clock?: Clock;
  /** Overrides `clock.now()` (a test following a simulator's clock) */
  now?: () => number;
  /** Overrides a wait on `clock` (a test that moves a simulator's clock instead of waiting) */
  sleep?: (ms: number) => Promise<void>;
  /** When a host counts as down and for how long calls to it are refused at once (`circuit-breaker.ts`) */
  breaker?: Omit<CircuitBreakerOptions, 'now'>;
}

/**
 * A small hand-written fapi REST client: HMAC-SHA256 signing, server-clock offset, bigint-safe JSON and typed
 * errors. Every call is admitted by the shared weight budget first (`weight-budget.ts`: per-user shares, a lane
 * kept for trading, background downloads last) or refused at once with a Retry-After; public market answers are
 * shared between users (`market-data-cache.ts`). It never retries by itself except for -1021 (timestamp outside
 * recvWindow: rejected before execution, so re-sending after a clock sync is safe).
 */
export class BinanceClient {
  readonly restUrl: string;
  readonly walletUrl: string | undefined;
  #offset = 0;
  #syncedAt = Number.NEGATIVE_INFINITY;
  #bannedUntil = 0;
  readonly #budget: WeightBudget;
  readonly #cache: MarketDataCache;
  readonly #timeoutMs: number;
  readonly #recvWindow: number;
  readonly #syncEvery: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #breaker: CircuitBreaker;

  constructor(options: BinanceClientOptions) {
    this.restUrl = options.restUrl.replace(/\/+$/, '');
    this.walletUrl = options.walletUrl?.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#recvWindow = options.recvWindowMs ?? 5_000;
    this.#syncEvery = options.timeSyncEveryMs ?? 5 * 60_000;
    const clock = options.clock ?? systemClock;
    this.#now = options.now ?? (() => clock.now().getTime());
    this.#sleep = options.sleep ?? ((ms) => sleep(clock, ms));
    this.#budget = new WeightBudget({ limit: options.weightLimit ?? 2400, ...options.budget });
    this.#cache = new MarketDataCache(this.#now);
    this.#breaker = new CircuitBreaker({ ...options.breaker, now: this.#now });
  }

  get clockOffsetMs(): number {
    return this.#offset;
  }

  /** The client's local time, ms (see `clock` in the options) */
  now(): number {
    return this.#now();
  }

  /** Weight used in the current exchange minute: what we admitted, raised by what the exchange reported */
  get usedWeight(): number {
    return this.#budget.used(this.#exchangeNow());
  }

  /** Measures server time minus local time from /fapi/v1/time, assuming a symmetric round trip */
  async syncTime(): Promise<number> {
    const sent = this.#now();
    const answer = await this.request('GET', '/fapi/v1/time', {}, { skipSync: true });
    const body = readAnswer('GET /fapi/v1/time', ServerTimeSchema, answer);
    const received = this.#now();
    this.#offset = Math.round(body.serverTime - (sent + received) / 2);
    this.#syncedAt = received;
    return this.#offset;
  }

  /** A public (unsigned) call; its answer read with `schema` */
  async get<S extends z.ZodType>(path: string, schema: S, params: Params = {}): Promise<z.output<S>> {
    const answer = await this.request('GET', path, params, { skipSync: true });
    return readAnswer(`GET ${path}`, schema, answer);
  }

  /** A signed call, its answer read with `schema`; the wallet host when `wallet` is set */
  async signed<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    keys: ExchangeKeys,
    schema: S,
    params: Params = {},
    wallet = false,
  ): Promise<z.output<S>> {
    const answer = await this.request(method, path, params, { keys, wallet });
    return readAnswer(`${method} ${path}`, schema, answer);
  }

  /** A USER_STREAM call (listenKey): the API key in its header, no timestamp or signature */
  async keyed<S extends z.ZodType>(
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    apiKey: string,
    schema: S,
  ): Promise<z.output<S>> {
    const answer = await this.request(method, path, {}, { apiKey, skipSync: true });
    return readAnswer(`${method} ${path}`, schema, answer);
  }

  /** The answer as parsed JSON, unread: callers go through `get`, `signed` or `keyed` */
  async request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    params: Params,
    opts: RequestOptions,
  ): Promise<unknown> {
    const base = opts.wallet ? this.walletUrl : this.restUrl;
    if (!base) throw new ExchangeUnavailableError('this exchange environment has no wallet host', false);
    const call = this.#plan(method, path, params, opts);
    // Public market data is shared by every user: a fresh or coming answer costs nothing; a miss is admitted
    // (or refused) for this caller alone before the one upstream call starts
    const ttl =
      method === 'GET' && !opts.keys && !opts.apiKey && call.lane !== 'background'
        ? freshnessMs(path, params)
        : undefined;
    if (ttl !== undefined) {
      return this.#cache.get(cacheKey(path, params), ttl, () => {
        this.#admitNow(call);
        // Shared by whoever asks meanwhile: one caller giving up must not cut the others' answer off
        return this.#send(base, method, path, params, opts, { ...call, signal: undefined });
      });
    }
    if (call.lane === 'background') await this.#admitOrWait(call);
    else this.#admitNow(call);
    if (opts.keys && !opts.skipSync && this.#now() - this.#syncedAt > this.#syncEvery) {
      try {
        await this.syncTime();
      } catch (err) {
        this.#budget.settle(call.weight, undefined, this.#exchangeNow());
        throw err;
      }
    }
    return this.#send(base, method, path, params, opts, call);
  }

  /** Who pays for a call, in which lane, and how much */
  #plan(method: Method, path: string, params: Params, opts: RequestOptions): PlannedCall {
    const ctx = currentCallContext();
    const lane: Lane = isTradingCall(method, path) ? 'trade' : (ctx.lane ?? 'interactive');
    const apiKey = opts.keys?.apiKey ?? opts.apiKey;
    const account = apiKey === undefined ? undefined : accountId(apiKey);
    return {
      lane,
      caller: ctx.caller ?? account ?? 'server',
      account,
      weight: requestWeight(method, path, params),
      order: account !== undefined && countsAsOrder(method, path),
      protective: ctx.protective === true || isProtectiveCall(method, path, params),
      signal: ctx.signal,
    };
  }

  /** Admits the call or throws at once (429 with the wait): nothing but background downloads waits */
  #admitNow(call: PlannedCall): void {
    const now = this.#now();
    if (this.#bannedUntil > now) {
      throw new ExchangeRateLimitError(
        `Binance request limit reached; retry in ${Math.ceil((this.#bannedUntil - now) / 1000)} s`,
        this.#bannedUntil - now,
      );
    }
    const exchangeNow = this.#exchangeNow();
    const admitted = this.#budget.admit(call.lane, call.caller, call.weight, exchangeNow);
    if (!admitted.ok) throw new ExchangeRateLimitError(admitted.message, admitted.retryAfterMs);
    if (call.order && call.account !== undefined) {
      const order = this.#budget.admitOrder(call.account, exchangeNow);
      if (!order.ok) {
        this.#budget.settle(call.weight, undefined, exchangeNow);
        throw new ExchangeRateLimitError(order.message, order.retryAfterMs);
      }
    }
  }

  /** Background calls wait (abortably) for the minute in which the budget admits them */
  async #admitOrWait(call: PlannedCall): Promise<void> {
    for (;;) {
      call.signal?.throwIfAborted();
      try {
        this.#admitNow(call);
        return;
      } catch (err) {
        if (!(err instanceof ExchangeRateLimitError)) throw err;
        await abortable(this.#sleep(err.retryAfterMs), call.signal);
      }
    }
  }

  async #send(
    base: string,
    method: Method,
    path: string,
    params: Params,
    opts: RequestOptions,
    call: PlannedCall,
  ): Promise<unknown> {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, String(v));
    const headers: Record<string, string> = {};
    if (opts.keys) {
      search.set('recvWindow', String(this.#recvWindow));
      search.set('timestamp', String(Math.round(this.#now() + this.#offset)));
      const signature = createHmac('sha256', opts.keys.secretKey).update(search.toString()).digest('hex');
      search.set('signature', signature);
      headers['X-MBX-APIKEY'] = opts.keys.apiKey;
    } else if (opts.apiKey) {
      headers['X-MBX-APIKEY'] = opts.apiKey;
    }
    const url = `${base}${path}${search.size ? `?${search.toString()}` : ''}`;

    // A read stops the moment its caller gives up (a canceled backtest's kline page), not when the page arrives.
    // Writes are never cut off mid-flight: an aborted order would be an unknown outcome we caused ourselves
    const cancel = method === 'GET' ? call.signal : undefined;
    let res: Response;
    let text: string;
    try {
      // Before anything leaves: a host (or a key) that keeps failing is refused at once (nothing sent) instead of
      // each call waiting out its timeout. A call that takes risk off is tried anyway, its wait bounded
      const tried = this.#breaker.admit(base, call);
      const timeout = AbortSignal.timeout(
        tried ? Math.min(this.#timeoutMs, PROTECTIVE_TIMEOUT_MS) : this.#timeoutMs,
      );
      res = await fetch(url, {
        method,
        headers,
        signal: cancel ? AbortSignal.any([cancel, timeout]) : timeout,
      });
      text = await res.text();
    } catch (err) {
      this.#budget.settle(call.weight, undefined, this.#exchangeNow());
      if (err instanceof ExchangeCircuitOpenError) throw err;
      // The caller gave up: no fault of the exchange's, so the breaker does not count it
      if (cancel?.aborted) throw cancel.reason;
      this.#breaker.failed(base, call);
      throw networkError(err, base);
    }
    if (res.status >= 500) this.#breaker.failed(base, call);
    else this.#breaker.succeeded(base, call);
    this.#noteCounts(res, call);

    if (res.status === 429 || res.status === 418) {
      const retryAfterMs = (Number(res.headers.get('retry-after')) || 60) * 1000;
      this.#bannedUntil = Math.max(this.#bannedUntil, this.#now() + retryAfterMs);
      throw new ExchangeRateLimitError(
        res.status === 418
          ? `Binance banned this IP for ${Math.ceil(retryAfterMs / 1000)} s after too many requests`
          : `Binance request limit reached; retry in ${Math.ceil(retryAfterMs / 1000)} s`,
        retryAfterMs,
      );
    }
    if (res.status >= 500) {
      const refusal = errorBody(safeParse(text));
      // -1008 (overloaded) is the one 5xx Binance documents as "not executed"
      const notExecuted = refusal?.code === -1008;
      throw new ExchangeUnavailableError(
        `Binance answered HTTP ${res.status}${refusal ? `: ${refusal.msg}` : ''}`,
        !notExecuted,
      );
    }
    const parsed = safeParse(text);
    if (res.status >= 400) {
      const refusal = errorBody(parsed);
      if (refusal) {
        if (refusal.code === -1021 && opts.keys && !opts.resynced) {
          await this.syncTime();
          return this.request(method, path, params, { ...opts, resynced: true });
        }
        throw new ExchangeApiError(res.status, refusal.code, refusal.msg);
      }
      throw new ExchangeApiError(res.status, 0, `Binance answered HTTP ${res.status}`);
    }
    if (parsed === undefined)
      throw new ExchangeUnavailableError('Binance answered with malformed JSON', true);
    return parsed;
  }

  /** The exchange's own counts (`X-MBX-USED-WEIGHT-1M`, `X-MBX-ORDER-COUNT-10S` / `-1M`) correct ours */
  #noteCounts(res: Response, call: PlannedCall): void {
    const header = (name: string) => {
      const raw = res.headers.get(name);
      const n = raw === null ? Number.NaN : Number(raw);
      return Number.isFinite(n) ? n : undefined;
    };
    const exchangeNow = this.#exchangeNow();
    this.#budget.settle(call.weight, header('x-mbx-used-weight-1m'), exchangeNow);
    if (call.account === undefined) return;
    const tenSeconds = header('x-mbx-order-count-10s');
    const minute = header('x-mbx-order-count-1m');
    if (tenSeconds !== undefined || minute !== undefined) {
      this.#budget.noteOrderCounts(call.account, { tenSeconds, minute }, exchangeNow);
    }
  }

  #exchangeNow(): number {
    return this.#now() + this.#offset;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RequestOptions {
  keys?: ExchangeKeys;
  apiKey?: string;
  wallet?: boolean;
  skipSync?: boolean;
  resynced?: boolean;
}

interface PlannedCall {
  lane: Lane;
  caller: string;
  /** The account of a keyed call (a digest of its API key: the key itself is not kept) */
  account: string | undefined;
  weight: number;
  /** Counts against the account's ORDERS limits */
  order: boolean;
  /** Takes risk off (`isProtectiveCall`, or work marked so): tried while a circuit is open */
  protective: boolean;
  signal: AbortSignal | undefined;
}

function accountId(apiKey: string): string {
  return `account:${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
}

/** `promise`, or the signal's reason as soon as it aborts */
function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function safeParse(text: string): unknown {
  try {
    return parseJsonBigSafe(text);
  } catch {
    return undefined;
  }
}

/** Binance's refusal (`{"code":-1121,"msg":"Invalid symbol."}`), if that is what the body is */
function errorBody(v: unknown): { code: number; msg: string } | undefined {
  const result = ErrorBodySchema.safeParse(v);
  return result.success ? result.data : undefined;
}

/** Refused/unresolvable = never sent; timeout or a reset after sending = maybe executed */
function networkError(err: unknown, base: string): ExchangeUnavailableError {
  const name = err instanceof Error ? err.name : undefined;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new ExchangeUnavailableError(`no answer from ${new URL(base).host} in time`, true);
  }
  // undici puts the system error (ECONNREFUSED, …) in `cause`
  const cause = err instanceof Error ? err.cause : undefined;
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string'
      ? cause.code
      : 'network error';
  const neverSent = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code);
  return new ExchangeUnavailableError(`cannot reach ${new URL(base).host} (${code})`, !neverSent);
}
