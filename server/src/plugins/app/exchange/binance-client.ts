import { createHmac } from 'node:crypto';
import type { z } from 'zod';
import { ErrorBodySchema, readAnswer, ServerTimeSchema } from './binance-schemas';
import {
  ExchangeApiError,
  type ExchangeKeys,
  ExchangeRateLimitError,
  ExchangeUnavailableError,
} from './exchange-adapter';
import { parseJsonBigSafe } from './json-bigint';

export type Params = Record<string, string | number | boolean | undefined>;

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
  /** Share of the limit past which new requests wait for the next minute (not 429 first) */
  weightHeadroom?: number;
  /** Re-measure the clock offset this often, ms */
  timeSyncEveryMs?: number;
  now?: () => number;
  /** How waiting is done; tests with fake timers replace nothing (setTimeout is faked) */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A small hand-written fapi REST client: HMAC-SHA256 signing, server-clock offset, weight accounting from
 * `X-MBX-USED-WEIGHT-1M`, bigint-safe JSON and typed errors. It never retries by itself except for -1021
 * (timestamp outside recvWindow: rejected before execution, so re-sending after a clock sync is safe).
 */
export class BinanceClient {
  readonly restUrl: string;
  readonly walletUrl: string | undefined;
  #offset = 0;
  #syncedAt = Number.NEGATIVE_INFINITY;
  #usedWeight = 0;
  #weightMinute = 0;
  #bannedUntil = 0;
  readonly #timeoutMs: number;
  readonly #recvWindow: number;
  readonly #weightLimit: number;
  readonly #headroom: number;
  readonly #syncEvery: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: BinanceClientOptions) {
    this.restUrl = options.restUrl.replace(/\/+$/, '');
    this.walletUrl = options.walletUrl?.replace(/\/+$/, '');
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#recvWindow = options.recvWindowMs ?? 5_000;
    this.#weightLimit = options.weightLimit ?? 2400;
    this.#headroom = options.weightHeadroom ?? 0.9;
    this.#syncEvery = options.timeSyncEveryMs ?? 5 * 60_000;
    this.#now = options.now ?? Date.now;
    this.#sleep = options.sleep ?? defaultSleep;
  }

  get clockOffsetMs(): number {
    return this.#offset;
  }

  /** Weight used in the current minute, as the exchange last reported it */
  get usedWeight(): number {
    return this.#usedWeight;
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
    opts: {
      keys?: ExchangeKeys;
      apiKey?: string;
      wallet?: boolean;
      skipSync?: boolean;
      resynced?: boolean;
    },
  ): Promise<unknown> {
    const base = opts.wallet ? this.walletUrl : this.restUrl;
    if (!base) throw new ExchangeUnavailableError('this exchange environment has no wallet host', false);
    await this.#respectLimits();
    if (opts.keys && !opts.skipSync && this.#now() - this.#syncedAt > this.#syncEvery) await this.syncTime();

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

    let res: Response;
    try {
      res = await fetch(url, { method, headers, signal: AbortSignal.timeout(this.#timeoutMs) });
    } catch (err) {
      throw networkError(err, base);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (err) {
      throw networkError(err, base);
    }
    this.#noteWeight(res);

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

  #noteWeight(res: Response): void {
    const used = Number(res.headers.get('x-mbx-used-weight-1m'));
    if (!Number.isFinite(used) || res.headers.get('x-mbx-used-weight-1m') === null) return;
    this.#usedWeight = used;
    this.#weightMinute = Math.floor((this.#now() + this.#offset) / 60_000);
  }

  /** Waits out a ban, and holds new requests till the next minute once the used weight nears the limit */
  async #respectLimits(): Promise<void> {
    const now = this.#now();
    if (this.#bannedUntil > now) {
      throw new ExchangeRateLimitError(
        `Binance request limit reached; retry in ${Math.ceil((this.#bannedUntil - now) / 1000)} s`,
        this.#bannedUntil - now,
      );
    }
    const minute = Math.floor((now + this.#offset) / 60_000);
    if (minute !== this.#weightMinute) return;
    if (this.#usedWeight >= this.#weightLimit * this.#headroom) {
      const wait = (minute + 1) * 60_000 - (now + this.#offset);
      await this.#sleep(wait);
      this.#usedWeight = 0;
    }
  }
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
