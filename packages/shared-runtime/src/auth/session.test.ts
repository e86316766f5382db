// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage, STORAGE_KEYS } from '../storage/storage';
import { type Handler, startTestServer, type TestServer, unusedBaseUrl } from '../test/http-server';
import { fakeJwt } from '../test/jwt';
import { createDpopSigner, memoryKeyStore } from './dpop';
import { createSession, type SessionState } from './session';

const user = {
  id: '7d6f3b0e-8a4c-4d1e-9b1a-2f5c6e7d8a90',
  email: 'trader@example.com',
  name: null,
  created_at: '2026-02-01T10:00:00.000Z',
};
/** The server's auth response (contracts' AuthResponseSchema), as sign-in, sign-up and refresh answer */
const authBody = (access_token: string, refresh_token: string, message = 'Signed in') => ({
  success: true,
  access_token,
  refresh_token,
  token_type: 'bearer',
  expires_in: 900,
  user,
  message,
});
const meBody = (u: unknown = user) => ({ success: true, user: u });
const inAnHour = () => fakeJwt({ exp: Math.floor(Date.now() / 1000) + 3600 });

let server: TestServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await server?.close();
  server = undefined;
});

async function sessionWith(routes: Record<string, Handler>, stored: Record<string, string> = {}) {
  server = await startTestServer(routes);
  const storage = createMemoryStorage(stored);
  const base = server.url;
  return { session: createSession({ baseUrl: () => base, storage }), storage, server };
}

async function unreachableSession(stored: Record<string, string> = {}) {
  const base = await unusedBaseUrl();
  const storage = createMemoryStorage(stored);
  return { session: createSession({ baseUrl: () => base, storage }), storage };
}

describe('sign-in (spec §8)', () => {
  it('sends email and password and stores tokens and user on success', async () => {
    const refresh = inAnHour();
    const { session, storage, server } = await sessionWith({
      'POST /api/v1/auth/signin': () => ({
        json: authBody('acc', refresh, 'Welcome'),
      }),
    });
    const result = await session.signIn({ email: 'trader@example.com', password: 'pw' });
    expect(result).toEqual({ success: true, data: user, message: 'Welcome' });
    expect(server.requests[0]?.body).toEqual({ email: 'trader@example.com', password: 'pw' });
    expect(session.state).toEqual({ status: 'signed-in', user, provisional: false });
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBe('acc');
    expect(storage.getItem(STORAGE_KEYS.refreshToken)).toBe(refresh);
    expect(JSON.parse(storage.getItem(STORAGE_KEYS.user) ?? '')).toEqual(user);
  });

  it.each([
    [503, {}, 'Service temporarily unavailable (503). Please try again shortly.'],
    [401, { message: 'Account locked' }, 'Account locked'],
    [400, { detail: 'Email not verified' }, 'Email not verified'],
    [401, {}, 'Invalid email or password.'],
    [500, {}, 'Authentication failed: 500 Internal Server Error.'],
    [200, { success: false }, 'Unable to sign in. Please check your credentials and try again.'],
    [200, { success: false, message: 'Too many attempts' }, 'Too many attempts'],
  ])('status %i with %j reads "%s"', async (status, json, error) => {
    const { session } = await sessionWith({ 'POST /api/v1/auth/signin': () => ({ status, json }) });
    expect(await session.signIn({ email: 'e', password: 'p' })).toEqual({ success: false, error });
    expect(session.state.status).not.toBe('signed-in');
  });

  it('reports an unreadable body', async () => {
    const { session } = await sessionWith({
      'POST /api/v1/auth/signin': () => ({ text: '<html>proxy</html>' }),
    });
    expect(await session.signIn({ email: 'e', password: 'p' })).toEqual({
      success: false,
      error: 'Unable to parse server response.',
    });
  });

  it('explains a fetch failure with the usual causes', async () => {
    const { session } = await unreachableSession();
    const result = await session.signIn({ email: 'e', password: 'p' });
    expect(result.success).toBe(false);
    const error = result.success ? '' : result.error;
    for (const cause of ['CORS', 'ad blocker', 'VPN', 'firewall', 'API']) expect(error).toContain(cause);
  });
});

describe('sign-up', () => {
  it('signs in on success', async () => {
    const { session, server } = await sessionWith({
      'POST /api/v1/auth/signup': () => ({
        json: authBody('a', 'r'),
      }),
    });
    expect(await session.signUp({ email: 'x@y.z', password: 'long-password', name: 'X' })).toMatchObject({
      success: true,
    });
    expect(server.requests[0]?.body).toEqual({ email: 'x@y.z', password: 'long-password', name: 'X' });
    expect(session.state.status).toBe('signed-in');
  });

  it('reports a network failure', async () => {
    const { session } = await unreachableSession();
    expect(await session.signUp({ email: 'e@x.y', password: 'long-password' })).toEqual({
      success: false,
      error: 'Network error. Please check your connection and try again.',
    });
  });
});

describe('refresh', () => {
  it('says when there is no refresh token', async () => {
    const { session } = await unreachableSession();
    expect(await session.refreshToken()).toEqual({ success: false, error: 'No refresh token available' });
  });

  it('refuses a refresh token expiring within 30 s without calling the server, and clears auth data', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T00:00:00Z'));
    const token = fakeJwt({ exp: Date.now() / 1000 + 30 });
    const { session, storage, server } = await sessionWith(
      { 'POST /api/v1/auth/refresh': () => ({ json: authBody('new', inAnHour()) }) },
      { [STORAGE_KEYS.refreshToken]: token, [STORAGE_KEYS.accessToken]: 'old' },
    );
    expect(await session.refreshToken()).toEqual({
      success: false,
      error: 'Refresh token expired. Please sign in again.',
    });
    expect(server.requests).toHaveLength(0);
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it.each([401, 403])('clears auth data when the server answers %i', async (status) => {
    const { session, storage } = await sessionWith(
      { 'POST /api/v1/auth/refresh': () => ({ status, json: {} }) },
      { [STORAGE_KEYS.refreshToken]: inAnHour(), [STORAGE_KEYS.accessToken]: 'old' },
    );
    expect(await session.refreshToken()).toEqual({
      success: false,
      error: 'Refresh token invalid. Please sign in again.',
    });
    expect(storage.getItem(STORAGE_KEYS.refreshToken)).toBeNull();
    expect(session.state.status).toBe('signed-out');
  });

  it('stores both rotated tokens, and shares one server call between concurrent refreshes', async () => {
    const refresh = inAnHour();
    const rotated = fakeJwt({ exp: Math.floor(Date.now() / 1000) + 7200 });
    const { session, storage, server } = await sessionWith(
      { 'POST /api/v1/auth/refresh': () => ({ json: authBody('new', rotated) }) },
      { [STORAGE_KEYS.refreshToken]: refresh, [STORAGE_KEYS.accessToken]: 'old' },
    );
    const [a, b] = await Promise.all([session.refreshToken(), session.refreshToken()]);
    expect(a).toEqual({ success: true, data: 'new' });
    expect(b).toEqual(a);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toEqual({ refresh_token: refresh });
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBe('new');
    expect(storage.getItem(STORAGE_KEYS.refreshToken)).toBe(rotated);
  });
});

describe('current user', () => {
  it('needs a token', async () => {
    const { session } = await unreachableSession();
    expect(await session.me()).toEqual({ success: false, error: 'No authentication token available' });
  });

  it('reports an expired authentication on 401', async () => {
    const { session } = await sessionWith(
      { 'GET /api/v1/auth/me': () => ({ status: 401, json: {} }) },
      { [STORAGE_KEYS.accessToken]: 'acc' },
    );
    expect(await session.me()).toEqual({
      success: false,
      error: 'Authentication expired. Please sign in again.',
    });
  });
});

describe('logout', () => {
  const stored = () => ({
    [STORAGE_KEYS.accessToken]: 'acc',
    [STORAGE_KEYS.refreshToken]: 'ref',
    [STORAGE_KEYS.user]: JSON.stringify(user),
  });

  it('clears local data and says so when the server cannot be reached', async () => {
    const { session, storage } = await unreachableSession(stored());
    expect(await session.logout()).toEqual({ success: true, data: null, message: 'Logged out locally.' });
    expect(storage.keys()).toEqual([]);
    expect(session.state.status).toBe('signed-out');
  });

  it('clears local data even when the server fails', async () => {
    const { session, storage, server } = await sessionWith(
      { 'POST /api/v1/auth/logout': () => ({ status: 500, json: {} }) },
      stored(),
    );
    await session.logout();
    expect(server.requests[0]?.headers.authorization).toBe('Bearer acc');
    expect(storage.keys()).toEqual([]);
  });
});

describe('start (spec §4 Authentication)', () => {
  it('is signed out at once when nothing is stored', async () => {
    const { session } = await unreachableSession();
    expect(await session.start()).toEqual({ status: 'signed-out', user: null, provisional: false });
  });

  it('shows the stored user as provisionally signed in, then confirms with the server', async () => {
    const { session } = await sessionWith(
      { 'GET /api/v1/auth/me': () => ({ json: meBody({ ...user, email: 'new@example.com' }) }) },
      { [STORAGE_KEYS.accessToken]: 'acc', [STORAGE_KEYS.user]: JSON.stringify(user) },
    );
    const seen: SessionState[] = [];
    session.state$.subscribe((s) => seen.push(s));
    await session.start();
    expect(seen).toEqual([
      { status: 'loading', user: null, provisional: false },
      { status: 'signed-in', user, provisional: true },
      { status: 'signed-in', user: { ...user, email: 'new@example.com' }, provisional: false },
    ]);
  });

  it('refreshes when the stored token is refused, then stays signed in', async () => {
    const { session, storage } = await sessionWith(
      {
        'GET /api/v1/auth/me': (req) =>
          req.headers.authorization === 'Bearer fresh' ? { json: meBody() } : { status: 401, json: {} },
        'POST /api/v1/auth/refresh': () => ({ json: authBody('fresh', inAnHour()) }),
      },
      {
        [STORAGE_KEYS.accessToken]: 'stale',
        [STORAGE_KEYS.refreshToken]: inAnHour(),
        [STORAGE_KEYS.user]: JSON.stringify(user),
      },
    );
    expect(await session.start()).toEqual({ status: 'signed-in', user, provisional: false });
    expect(storage.getItem(STORAGE_KEYS.accessToken)).toBe('fresh');
  });

  it('refreshes first when the access token expires within 30 s', async () => {
    const { session, server } = await sessionWith(
      {
        'GET /api/v1/auth/me': () => ({ json: meBody() }),
        'POST /api/v1/auth/refresh': () => ({ json: authBody('fresh', inAnHour()) }),
      },
      {
        [STORAGE_KEYS.accessToken]: fakeJwt({ exp: Math.floor(Date.now() / 1000) + 20 }),
        [STORAGE_KEYS.refreshToken]: inAnHour(),
        [STORAGE_KEYS.user]: JSON.stringify(user),
      },
    );
    await session.start();
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v1/auth/refresh', '/api/v1/auth/me']);
  });

  it('clears local auth data and signs out when neither validation nor refresh works', async () => {
    const { session, storage } = await sessionWith(
      {
        'GET /api/v1/auth/me': () => ({ status: 401, json: {} }),
        'POST /api/v1/auth/refresh': () => ({ status: 401, json: {} }),
      },
      {
        [STORAGE_KEYS.accessToken]: 'stale',
        [STORAGE_KEYS.refreshToken]: inAnHour(),
        [STORAGE_KEYS.user]: JSON.stringify(user),
      },
    );
    expect(await session.start()).toEqual({ status: 'signed-out', user: null, provisional: false });
    expect(storage.keys()).toEqual([]);
  });
});

describe('the browser key proof (DPoP)', () => {
  const decode = (part: string | undefined) => JSON.parse(Buffer.from(part ?? '', 'base64url').toString());

  it('proves a new key at sign-in and signs every refresh with that same key', async () => {
    server = await startTestServer({
      'POST /api/v1/auth/signin': () => ({ json: authBody('acc', inAnHour()) }),
      'POST /api/v1/auth/refresh': () => ({ json: authBody('new', inAnHour()) }),
    });
    const base = server.url;
    const dpop = createDpopSigner({ store: memoryKeyStore(), subtle: globalThis.crypto.subtle });
    const session = createSession({ baseUrl: () => base, storage: createMemoryStorage(), dpop });
    await session.signIn({ email: 'trader@example.com', password: 'pw' });
    await session.refreshToken();
    const [signin, refresh] = (server.requests ?? []).map((r) => String(r.headers.dpop).split('.'));
    for (const [proof, path] of [
      [signin, '/api/v1/auth/signin'],
      [refresh, '/api/v1/auth/refresh'],
    ] as const) {
      expect(proof).toHaveLength(3);
      expect(decode(proof?.[0])).toMatchObject({
        typ: 'dpop+jwt',
        alg: 'ES256',
        jwk: { kty: 'EC', crv: 'P-256' },
      });
      expect(decode(proof?.[0]).jwk.d).toBeUndefined();
      expect(decode(proof?.[1])).toMatchObject({ htm: 'POST', htu: `${base}${path}` });
    }
    expect(decode(refresh?.[0]).jwk).toEqual(decode(signin?.[0]).jwk);
    expect(decode(refresh?.[1]).jti).not.toBe(decode(signin?.[1]).jti);
  });

  it('keeps the private key non-extractable', async () => {
    const store = memoryKeyStore();
    const dpop = createDpopSigner({ store, subtle: globalThis.crypto.subtle });
    const made = await dpop.proveNewKey('POST', 'http://api.test/api/v1/auth/signin');
    // Not stored until the sign-in succeeded
    expect(await store.load()).toBeUndefined();
    await made?.keep();
    const pair = await store.load();
    expect(pair?.privateKey.extractable).toBe(false);
    await expect(globalThis.crypto.subtle.exportKey('jwk', pair?.privateKey as CryptoKey)).rejects.toThrow();
  });

  it('signs in without a proof when the page has no WebCrypto (an insecure origin)', async () => {
    server = await startTestServer({
      'POST /api/v1/auth/signin': () => ({ json: authBody('acc', inAnHour()) }),
    });
    const base = server.url;
    const dpop = createDpopSigner({ store: memoryKeyStore() });
    const session = createSession({ baseUrl: () => base, storage: createMemoryStorage(), dpop });
    expect(await session.signIn({ email: 'trader@example.com', password: 'pw' })).toMatchObject({
      success: true,
    });
    expect(server.requests[0]?.headers.dpop).toBeUndefined();
  });
});
