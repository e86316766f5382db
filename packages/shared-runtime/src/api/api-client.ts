import type { ZodType } from 'zod';
import { isAccessTokenExpiring } from '../auth/token';
import { type ContractSchema, prefetchSchema, resolveSchema } from '../lazy-contracts';
import { MESSAGES, SPEC } from '../spec';
import type { CircuitBreaker } from './circuit-breaker';

/** The API wrapper result (spec §3): success, data, error, message; a failed result can carry requiresLogin */
export type ApiResult<T> =
  | { success: true; data: T; message?: string }
  | {
      success: false;
      error: string;
      message?: string;
      status?: number;
      /** The server's error code (`ORDER_STATUS_UNKNOWN`, `EXCHANGE_REJECTED`…) when its body names one */
      code?: string;
      requiresLogin?: boolean;
      /** The backend could not be reached at all (network, CORS, timeout) */
      unreachable?: true;
    };

/** What the client needs from the session: kept as an interface so the two do not import each other */
export interface ApiAuth {
  accessToken(): string | null;
  /** Refreshes the access token; resolves true when a new one is stored */
  refresh(): Promise<boolean>;
  /** Clears local auth data (tokens and user) */
  clear(): void;
}

export type QueryValue = string | number | boolean | undefined;

export interface ApiRequest<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the base URL, e.g. `/api/v1/auth/me` */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** Parses the reply (a schema, or a pick from the contracts); without one the data is returned as `unknown` JSON */
  schema?: ContractSchema<T>;
  /** Send the bearer token and apply the 401 refresh rule (default true) */
  authenticated?: boolean;
  /** Cancels the call (TanStack Query passes one) */
  signal?: AbortSignal;
}

export interface ApiClient {
  request<T = unknown>(request: ApiRequest<T>): Promise<ApiResult<T>>;
  get<T = unknown>(path: string, options?: Omit<ApiRequest<T>, 'path' | 'method'>): Promise<ApiResult<T>>;
  post<T = unknown>(
    path: string,
    body?: unknown,
    options?: Omit<ApiRequest<T>, 'path' | 'method' | 'body'>,
  ): Promise<ApiResult<T>>;
  delete<T = unknown>(path: string, options?: Omit<ApiRequest<T>, 'path' | 'method'>): Promise<ApiResult<T>>;
  /**
   * Starts an authenticated GET of `path` now, for a page whose code is still on its way: the first `get` of the same
   * URL within {@link EARLY_REPLY_MS} takes its reply instead of asking again (once; later calls ask as usual).
   * Nothing is sent without a token that is good for a while, and an unused reply is dropped unread
   */
  prefetch(path: string, query?: Record<string, QueryValue>): void;
}

/** How long a prefetched reply may stand in for the caller's own request (from when it was asked) */
export const EARLY_REPLY_MS = 10_000;

/** The server's code for "give the password again first" (contracts' STEP_UP_REQUIRED) */
const STEP_UP_REQUIRED = 'STEP_UP_REQUIRED';

export interface ApiClientDeps {
  /** Base URL, read on every call so a late-loaded run-time config is picked up */
  baseUrl: () => string;
  breaker: CircuitBreaker;
  auth?: ApiAuth;
  /** Asked when a guarded call is refused with STEP_UP_REQUIRED; true = the password was given, send it again */
  stepUp?: { request(): Promise<boolean> };
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

type RawReply = { kind: 'reply'; status: number; statusText: string; body: unknown; bodyError?: boolean };
type RawFailure = { kind: 'unreachable' } | { kind: 'canceled' };

/**
 * Any error body, read tolerantly: our server sends `{ detail, message, code }` (contracts' ErrorResponseSchema),
 * but a proxy or an older server may send either field alone, or FastAPI-style `detail: [{ msg }]`
 */
function errorBody(body: unknown): { detail?: unknown; message?: unknown; code?: unknown } | undefined {
  return body && typeof body === 'object' && !Array.isArray(body) ? body : undefined;
}

/** Builds the URL, joining base and path without doubled or missing slashes */
export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const url = new URL(baseUrl.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`));
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url.toString();
}

/** The server's error code, when the body is ours (`{ detail, message, code }`) */
function errorCode(body: unknown): string | undefined {
  const code = errorBody(body)?.code;
  return typeof code === 'string' && code ? code : undefined;
}

/** The server's own words (detail or message), else `HTTP {status}: {text}` (spec §8 "API wrapper") */
export function errorText(status: number, statusText: string, body: unknown): string {
  const fields = errorBody(body);
  if (fields) {
    const { detail, message } = fields;
    if (typeof detail === 'string' && detail) return detail;
    // FastAPI-style validation errors: [{ msg, loc }, ...]
    if (Array.isArray(detail)) {
      const texts = detail
        .map((d) => (d && typeof d === 'object' && 'msg' in d ? String(d.msg) : ''))
        .filter(Boolean);
      if (texts.length > 0) return texts.join('; ');
    }
    if (typeof message === 'string' && message) return message;
  }
  return MESSAGES.httpStatus(status, statusText);
}

/** The one REST client: bearer token, 30 s timeout, 401 refresh-once, circuit breaker, contract parsing */
export function createApiClient(deps: ApiClientDeps): ApiClient {
  const fetchImpl = deps.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const timeoutMs = deps.timeoutMs ?? SPEC.apiRequestTimeoutMs;
  const now = deps.now ?? (() => Date.now());
  /** Prefetched GETs by URL, each taken once */
  const early = new Map<string, { reply: Promise<RawReply | RawFailure>; at: number }>();

  async function send(request: ApiRequest<unknown>, baseUrl: string): Promise<RawReply | RawFailure> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = request.authenticated === false ? null : deps.auth?.accessToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (request.body !== undefined) headers['content-type'] = 'application/json';

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const onCallerAbort = () => controller.abort();
    request.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const response = await fetchImpl(buildUrl(baseUrl, request.path, request.query), {
        method: request.method ?? 'GET',
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: controller.signal,
      });
      const text = await response.text();
      let body: unknown;
      let bodyError = false;
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
          bodyError = true;
        }
      }
      return { kind: 'reply', status: response.status, statusText: response.statusText, body, bodyError };
    } catch {
      // The caller gave up (a query canceled by a refetch or an unmount): the backend did nothing wrong
      if (request.signal?.aborted) return { kind: 'canceled' };
      // Network failure, refused connection, CORS rejection or our own timeout: the browser cannot tell them apart
      return { kind: 'unreachable' };
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  function prefetch(path: string, query?: Record<string, QueryValue>): void {
    const token = deps.auth?.accessToken();
    // A token about to expire is refreshed by the real call, which must then send with the new one
    if (!token || isAccessTokenExpiring(token, now()) || !deps.breaker.canRequest()) return;
    const baseUrl = deps.baseUrl();
    const url = buildUrl(baseUrl, path, query);
    if (early.has(url)) return;
    early.set(url, { reply: send({ path, ...(query ? { query } : {}) }, baseUrl), at: now() });
  }

  /** The prefetched reply of this call's URL, if one was asked for lately (taken: the next call asks again) */
  function takeEarly(req: ApiRequest<unknown>, baseUrl: string): Promise<RawReply | RawFailure> | undefined {
    if (early.size === 0 || (req.method ?? 'GET') !== 'GET' || req.authenticated === false) return undefined;
    const url = buildUrl(baseUrl, req.path, req.query);
    const found = early.get(url);
    if (!found) return undefined;
    early.delete(url);
    return now() - found.at <= EARLY_REPLY_MS ? found.reply : undefined;
  }

  async function request<T>(req: ApiRequest<T>): Promise<ApiResult<T>> {
    if (!deps.breaker.canRequest()) return { success: false, error: MESSAGES.circuitOpen };
    prefetchSchema(req.schema);
    const baseUrl = deps.baseUrl();
    const authenticated = req.authenticated !== false && deps.auth !== undefined;
    // Spec §9 access token expiry margin: a token expiring within 30 s is refreshed before the call, not after a 401
    let refreshedAlready = false;
    const token = authenticated ? deps.auth?.accessToken() : null;
    if (token && deps.auth && isAccessTokenExpiring(token, now())) {
      refreshedAlready = true;
      await deps.auth.refresh();
    }
    // Not after an early refresh: the prefetch went with the token that was just replaced
    let reply = await ((refreshedAlready ? undefined : takeEarly(req, baseUrl)) ?? send(req, baseUrl));

    if (authenticated && reply.kind === 'reply' && reply.status === 401) {
      // Refresh once per call: if the early refresh already failed or did not help, sign-in is needed
      const refreshed = !refreshedAlready && deps.auth ? await deps.auth.refresh() : false;
      if (refreshed) reply = await send(req, baseUrl);
      if (!refreshed || (reply.kind === 'reply' && reply.status === 401)) {
        deps.auth?.clear();
        return { success: false, error: MESSAGES.authExpired, status: 401, requiresLogin: true };
      }
    }

    // A guarded action without a recent password: ask for it (the host's prompt), then send the call once more
    if (
      authenticated &&
      deps.stepUp &&
      reply.kind === 'reply' &&
      reply.status === 403 &&
      errorCode(reply.body) === STEP_UP_REQUIRED &&
      (await deps.stepUp.request())
    ) {
      reply = await send(req, baseUrl);
    }

    // Not a failure of the backend: a burst of invalidations cancels fetches by the dozen, and counting them would
    // open the circuit on a healthy server
    if (reply.kind === 'canceled') return { success: false, error: 'Request canceled' };
    if (reply.kind === 'unreachable') {
      deps.breaker.recordFailure();
      return { success: false, error: MESSAGES.connectionFailed(baseUrl), unreachable: true };
    }
    // A 5xx means the backend is unwell; a 4xx means it answered (the caller's fault), so it closes the circuit
    if (reply.status >= 500) deps.breaker.recordFailure();
    else deps.breaker.recordSuccess();

    if (reply.status < 200 || reply.status >= 300) {
      const error = errorText(reply.status, reply.statusText, reply.body);
      const code = errorCode(reply.body);
      return { success: false, error, message: error, status: reply.status, ...(code ? { code } : {}) };
    }
    if (reply.bodyError) {
      return {
        success: false,
        error: `Unexpected response from ${req.path}: not JSON`,
        status: reply.status,
      };
    }
    const message =
      reply.body &&
      typeof reply.body === 'object' &&
      'message' in reply.body &&
      typeof reply.body.message === 'string'
        ? reply.body.message
        : undefined;
    if (!req.schema) return { success: true, data: reply.body as T, ...(message ? { message } : {}) };
    let schema: ZodType<T>;
    try {
      schema = await resolveSchema(req.schema);
    } catch {
      return { success: false, error: MESSAGES.contractsUnavailable, status: reply.status };
    }
    const parsed = schema.safeParse(reply.body);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ');
      return {
        success: false,
        error: `Unexpected response from ${req.path}: ${issues}`,
        status: reply.status,
      };
    }
    return { success: true, data: parsed.data, ...(message ? { message } : {}) };
  }

  return {
    request,
    get: (path, options) => request({ ...options, path, method: 'GET' }),
    post: (path, body, options) => request({ ...options, path, body, method: 'POST' }),
    delete: (path, options) => request({ ...options, path, method: 'DELETE' }),
    prefetch,
  };
}
