import { readUser, type SigninRequest, type SignupRequest, type User } from '@kestrel/contracts';
import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs';
import { buildUrl, errorText } from '../api/api-client';
import { type Contracts, tryLoadContracts } from '../lazy-contracts';
import { MESSAGES, SPEC } from '../spec';
import { type KeyValueStorage, readJson, STORAGE_KEYS } from '../storage/storage';
import type { DpopSigner, NewKeyProof } from './dpop';
import { isAccessTokenExpiring, isRefreshTokenExpired } from './token';

export type SessionStatus = 'loading' | 'signed-in' | 'signed-out';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  /** True while a stored user is shown as signed in before the server has confirmed the token */
  provisional: boolean;
}

export type SessionResult<T> =
  | { success: true; data: T; message?: string }
  | { success: false; error: string };

export interface Session {
  readonly state$: Observable<SessionState>;
  readonly state: SessionState;
  /** Provisional signed-in state from storage, then validate (or refresh) the token; signed out on failure */
  start(): Promise<SessionState>;
  signIn(credentials: SigninRequest): Promise<SessionResult<User>>;
  signUp(form: SignupRequest): Promise<SessionResult<User>>;
  refreshToken(): Promise<SessionResult<string>>;
  me(): Promise<SessionResult<User>>;
  /** Always clears local data, whatever the server says */
  logout(): Promise<SessionResult<null>>;
  // ApiAuth, so the API client can apply the 401 rule
  accessToken(): string | null;
  refresh(): Promise<boolean>;
  clear(): void;
}

/** The slice of the Web Locks API (`navigator.locks`) the refresh uses to run one refresh at a time across tabs */
export interface RefreshLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** The Web Lock every tab of the origin takes around a refresh */
export const REFRESH_LOCK_NAME = 'kestrel-refresh';

export interface SessionDeps {
  baseUrl: () => string;
  storage: KeyValueStorage;
  /** Proofs of the browser's key for sign-in, sign-up and refresh; without it no proof is sent */
  dpop?: DpopSigner;
  /** Cross-tab lock (the browser's `navigator.locks`); without it a refresh is single-flight in this page only */
  locks?: RefreshLocks;
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
}

type Reply =
  | { kind: 'reply'; status: number; statusText: string; text: string }
  | { kind: 'unreachable'; error: unknown };

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function serverWords(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ['message', 'detail'] as const) {
    const value = record[key];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
}

/** A reply outside 2xx as the call's failure, in the server's words or by its status; null for a 2xx reply */
function statusFailure(
  reply: Extract<Reply, { kind: 'reply' }>,
  body: ReturnType<typeof parseJson>,
): { success: false; error: string } | null {
  if (reply.status >= 200 && reply.status < 300) return null;
  return {
    success: false,
    error: errorText(reply.status, reply.statusText, body.ok ? body.value : undefined),
  };
}

/** Sign-in, sign-up, refresh, logout and current user, with the spec's error catalogue (§8) */
export function createSession(deps: SessionDeps): Session {
  const fetchImpl = deps.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const now = deps.now ?? (() => Date.now());
  const { storage } = deps;
  const state = new BehaviorSubject<SessionState>({ status: 'loading', user: null, provisional: false });
  let refreshInFlight: Promise<SessionResult<string>> | undefined;

  async function call(
    method: string,
    path: string,
    body?: unknown,
    token?: string | null,
    extra: Record<string, string> = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), deps.timeoutMs ?? SPEC.apiRequestTimeoutMs);
    try {
      const response = await fetchImpl(buildUrl(deps.baseUrl(), path), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
      return {
        kind: 'reply',
        status: response.status,
        statusText: response.statusText,
        text: await response.text(),
      };
    } catch (error) {
      return { kind: 'unreachable', error };
    } finally {
      clearTimeout(timer);
    }
  }

  function store(accessToken: string, refreshToken: string | undefined, user: User | undefined) {
    storage.setItem(STORAGE_KEYS.accessToken, accessToken);
    if (refreshToken) storage.setItem(STORAGE_KEYS.refreshToken, refreshToken);
    if (user) storage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
    const known = user ?? state.getValue().user;
    state.next({ status: 'signed-in', user: known, provisional: false });
  }

  /**
   * Drops the browser key with the tokens, when the session is over for certain (logout, refresh refused). Not in
   * `clear`, which also runs at a start with nothing stored: another tab may be signing in with a new key just then
   */
  function endSession() {
    clear();
    void deps.dpop?.forget();
  }

  function clear() {
    storage.removeItem(STORAGE_KEYS.accessToken);
    storage.removeItem(STORAGE_KEYS.refreshToken);
    storage.removeItem(STORAGE_KEYS.user);
    state.next({ status: 'signed-out', user: null, provisional: false });
  }

  /** Shared by sign-in and sign-up once a 2xx body is read; the new key is kept before the tokens are stored */
  async function acceptAuth(
    body: unknown,
    fallback: string,
    key: NewKeyProof | undefined,
    contracts: Promise<Contracts | undefined>,
  ): Promise<SessionResult<User>> {
    const schemas = await contracts;
    if (!schemas) return { success: false, error: MESSAGES.contractsUnavailable };
    const parsed = schemas.AuthResponseSchema.safeParse(body);
    if (!parsed.success) return { success: false, error: serverWords(body) ?? fallback };
    await key?.keep();
    store(parsed.data.access_token, parsed.data.refresh_token, parsed.data.user);
    return {
      success: true,
      data: parsed.data.user,
      ...(parsed.data.message ? { message: parsed.data.message } : {}),
    };
  }

  async function signIn(credentials: SigninRequest): Promise<SessionResult<User>> {
    const path = '/api/v1/auth/signin';
    // The schemas load beside the request, not after it
    const contracts = tryLoadContracts();
    const key = await newKeyProof(path);
    const reply = await call(
      'POST',
      path,
      { email: credentials.email, password: credentials.password },
      undefined,
      key ? { dpop: key.proof } : {},
    );
    if (reply.kind === 'unreachable') return { success: false, error: MESSAGES.signInFetchFailure };
    if (reply.status === 503) return { success: false, error: MESSAGES.signInServiceUnavailable };
    const body = parseJson(reply.text);
    if (reply.status === 400 || reply.status === 401) {
      return {
        success: false,
        error: (body.ok && serverWords(body.value)) || MESSAGES.signInInvalidCredentials,
      };
    }
    if (reply.status < 200 || reply.status >= 300) {
      return { success: false, error: MESSAGES.signInOtherStatus(reply.status, reply.statusText) };
    }
    if (!body.ok) return { success: false, error: MESSAGES.signInUnreadableBody };
    return acceptAuth(body.value, MESSAGES.signInFallback, key, contracts);
  }

  async function signUp(form: SignupRequest): Promise<SessionResult<User>> {
    const path = '/api/v1/auth/signup';
    // The schemas load beside the request, not after it
    const contracts = tryLoadContracts();
    const key = await newKeyProof(path);
    const reply = await call('POST', path, form, undefined, key ? { dpop: key.proof } : {});
    if (reply.kind === 'unreachable') return { success: false, error: MESSAGES.signUpNetworkFailure };
    const body = parseJson(reply.text);
    const failed = statusFailure(reply, body);
    if (failed) return failed;
    if (!body.ok) return { success: false, error: MESSAGES.signInUnreadableBody };
    return acceptAuth(body.value, MESSAGES.signUpFallback, key, contracts);
  }

  /** A new key's proof for a sign-in or sign-up (the session will be bound to it); undefined without WebCrypto */
  async function newKeyProof(path: string): Promise<NewKeyProof | undefined> {
    return deps.dpop?.proveNewKey('POST', buildUrl(deps.baseUrl(), path));
  }

  /** The DPoP header of a refresh, signed by the stored key; empty when there is none */
  async function storedKeyProof(path: string): Promise<Record<string, string>> {
    const proof = await deps.dpop?.prove('POST', buildUrl(deps.baseUrl(), path));
    return proof ? { dpop: proof } : {};
  }

  /**
   * Tabs share local storage, so a refresh token is spent by whichever tab refreshes first; the other would then
   * present a used token. Under the cross-tab lock, a tab whose token was replaced while it waited takes the new
   * access token instead of refreshing again (the server's grace window covers browsers without Web Locks)
   */
  async function doRefresh(): Promise<SessionResult<string>> {
    const before = storage.getItem(STORAGE_KEYS.refreshToken);
    if (!deps.locks) return refreshWith(before);
    return deps.locks.request(REFRESH_LOCK_NAME, async () => {
      const current = storage.getItem(STORAGE_KEYS.refreshToken);
      const access = storage.getItem(STORAGE_KEYS.accessToken);
      if (before && current && current !== before && access && !isAccessTokenExpiring(access, now())) {
        state.next({
          status: 'signed-in',
          user: readUser(readJson(storage, STORAGE_KEYS.user)) ?? state.getValue().user,
          provisional: false,
        });
        return { success: true, data: access };
      }
      return refreshWith(current);
    });
  }

  async function refreshWith(refreshToken: string | null): Promise<SessionResult<string>> {
    if (!refreshToken) return { success: false, error: MESSAGES.noRefreshToken };
    if (isRefreshTokenExpired(refreshToken, now())) {
      endSession();
      return { success: false, error: MESSAGES.refreshTokenExpired };
    }
    const path = '/api/v1/auth/refresh';
    // The schemas load beside the request, not after it
    const contracts = tryLoadContracts();
    const reply = await call(
      'POST',
      path,
      { refresh_token: refreshToken },
      undefined,
      await storedKeyProof(path),
    );
    if (reply.kind === 'unreachable')
      return { success: false, error: MESSAGES.connectionFailed(deps.baseUrl()) };
    const body = parseJson(reply.text);
    if (reply.status === 401 || reply.status === 403) {
      endSession();
      return { success: false, error: MESSAGES.refreshTokenInvalid };
    }
    const failed = statusFailure(reply, body);
    if (failed) return failed;
    // The server answers a refresh with the full auth response: both tokens rotate, the user is current
    const schemas = await contracts;
    if (!schemas) return { success: false, error: MESSAGES.contractsUnavailable };
    const parsed = schemas.AuthResponseSchema.safeParse(body.ok ? body.value : undefined);
    if (!parsed.success) return { success: false, error: MESSAGES.signInUnreadableBody };
    store(parsed.data.access_token, parsed.data.refresh_token, parsed.data.user);
    return { success: true, data: parsed.data.access_token };
  }

  /** One refresh at a time: ten calls failing with 401 together must not spend the refresh token ten times */
  function refreshToken(): Promise<SessionResult<string>> {
    refreshInFlight ??= doRefresh().finally(() => {
      refreshInFlight = undefined;
    });
    return refreshInFlight;
  }

  async function me(): Promise<SessionResult<User>> {
    const token = storage.getItem(STORAGE_KEYS.accessToken);
    if (!token) return { success: false, error: MESSAGES.noAuthToken };
    // The schemas load beside the request, not after it
    const contracts = tryLoadContracts();
    const reply = await call('GET', '/api/v1/auth/me', undefined, token);
    if (reply.kind === 'unreachable')
      return { success: false, error: MESSAGES.connectionFailed(deps.baseUrl()) };
    if (reply.status === 401) return { success: false, error: MESSAGES.authExpired };
    const body = parseJson(reply.text);
    const failed = statusFailure(reply, body);
    if (failed) return failed;
    const schemas = await contracts;
    if (!schemas) return { success: false, error: MESSAGES.contractsUnavailable };
    const parsed = schemas.MeResponseSchema.safeParse(body.ok ? body.value : undefined);
    if (!parsed.success) return { success: false, error: MESSAGES.signInUnreadableBody };
    const { user } = parsed.data;
    storage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
    state.next({ status: 'signed-in', user, provisional: false });
    return { success: true, data: user };
  }

  async function logout(): Promise<SessionResult<null>> {
    const token = storage.getItem(STORAGE_KEYS.accessToken);
    const reply = token ? await call('POST', '/api/v1/auth/logout', undefined, token) : undefined;
    endSession();
    if (reply?.kind === 'unreachable')
      return { success: true, data: null, message: MESSAGES.loggedOutLocally };
    return { success: true, data: null };
  }

  async function start(): Promise<SessionState> {
    const token = storage.getItem(STORAGE_KEYS.accessToken);
    const stored = readUser(readJson(storage, STORAGE_KEYS.user));
    if (!token || !stored) {
      clear();
      return state.getValue();
    }
    state.next({ status: 'signed-in', user: stored, provisional: true });
    if (!isAccessTokenExpiring(token, now()) && (await me()).success) return state.getValue();
    const refreshed = await refreshToken();
    if (refreshed.success && (await me()).success) return state.getValue();
    clear();
    return state.getValue();
  }

  return {
    state$: state.pipe(distinctUntilChanged()),
    get state() {
      return state.getValue();
    },
    start,
    signIn,
    signUp,
    refreshToken,
    me,
    logout,
    accessToken: () => storage.getItem(STORAGE_KEYS.accessToken),
    refresh: async () => (await refreshToken()).success,
    clear,
  };
}
