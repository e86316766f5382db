// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { startTestServer, type TestServer, unusedBaseUrl } from '../test/http-server';
import { fakeJwt } from '../test/jwt';
import { type ApiAuth, createApiClient, EARLY_REPLY_MS } from './api-client';
import { createCircuitBreaker } from './circuit-breaker';

const Me = z.object({ id: z.number(), email: z.string() });

function fakeAuth(token: string | null, refreshTo: string | null) {
  let current = token;
  const calls = { refresh: 0, clear: 0 };
  const auth: ApiAuth = {
    accessToken: () => current,
    refresh: async () => {
      calls.refresh += 1;
      if (refreshTo === null) return false;
      current = refreshTo;
      return true;
    },
    clear: () => {
      calls.clear += 1;
      current = null;
    },
  };
  return { auth, calls };
}

describe('API client against a real HTTP server', () => {
  let server: TestServer;
  afterEach(async () => {
    vi.useRealTimers();
    await server?.close();
  });

  it('sends the bearer token on authenticated calls only and parses replies with the schema', async () => {
    server = await startTestServer({
      'GET /api/v1/auth/me': () => ({ json: { id: 7, email: 'a@b.c' } }),
      'GET /api/v1/market/status': () => ({ json: { ok: true } }),
    });
    const { auth } = fakeAuth('tok-1', null);
    const client = createApiClient({
      baseUrl: () => `${server.url}/`,
      breaker: createCircuitBreaker(),
      auth,
    });
    expect(await client.get('/api/v1/auth/me', { schema: Me })).toEqual({
      success: true,
      data: { id: 7, email: 'a@b.c' },
    });
    await client.get('/api/v1/market/status', { authenticated: false });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer tok-1');
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
  });

  it('sends query parameters and JSON bodies', async () => {
    server = await startTestServer({ 'POST /api/futures/leverage/set': () => ({ json: { done: true } }) });
    const client = createApiClient({ baseUrl: () => server.url, breaker: createCircuitBreaker() });
    await client.post(
      '/api/futures/leverage/set',
      { symbol: 'BTCUSDT', leverage: 5 },
      { query: { dry: true } },
    );
    expect(server.requests[0]?.body).toEqual({ symbol: 'BTCUSDT', leverage: 5 });
    expect(server.requests[0]?.query.get('dry')).toBe('true');
  });

  it('reports the server detail, else its message, else "HTTP {status}: {text}"', async () => {
    server = await startTestServer({
      'GET /detail': () => ({ status: 400, json: { detail: 'Symbol is required' } }),
      'GET /message': () => ({ status: 409, json: { message: 'Order already cancelled' } }),
      'GET /bare': () => ({ status: 418, statusText: "I'm a teapot", text: '' }),
    });
    const client = createApiClient({ baseUrl: () => server.url, breaker: createCircuitBreaker() });
    expect(await client.get('/detail')).toMatchObject({
      success: false,
      error: 'Symbol is required',
      status: 400,
    });
    expect(await client.get('/message')).toMatchObject({ success: false, error: 'Order already cancelled' });
    expect(await client.get('/bare')).toMatchObject({ success: false, error: "HTTP 418: I'm a teapot" });
  });

  it("carries the server's error code, so a caller can tell a refused order from one whose status is unknown", async () => {
    server = await startTestServer({
      'POST /unknown': () => ({
        status: 503,
        json: {
          success: false,
          detail: 'not confirmed',
          message: 'not confirmed',
          code: 'ORDER_STATUS_UNKNOWN',
        },
      }),
      'POST /plain': () => ({ status: 503, json: { detail: 'down' } }),
    });
    const client = createApiClient({ baseUrl: () => server.url, breaker: createCircuitBreaker() });
    expect(await client.post('/unknown')).toMatchObject({ status: 503, code: 'ORDER_STATUS_UNKNOWN' });
    expect(await client.post('/plain')).not.toHaveProperty('code');
  });

  it('says which backend it could not reach', async () => {
    const base = await unusedBaseUrl();
    server = await startTestServer({});
    const client = createApiClient({ baseUrl: () => base, breaker: createCircuitBreaker() });
    expect(await client.get('/api/v1/dashboard/overview')).toEqual({
      success: false,
      error: `Connection failed to ${base}. Please check if the backend is running.`,
      unreachable: true,
    });
  });

  it('gives up after 30 s when the server does not answer', async () => {
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => {
      received = resolve;
    });
    server = await startTestServer({
      'GET /slow': () => {
        received(); // and never answers
        return undefined;
      },
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const client = createApiClient({ baseUrl: () => server.url, breaker: createCircuitBreaker() });
    let settled = false;
    const pending = client.get('/slow').finally(() => {
      settled = true;
    });
    await arrived;
    await vi.advanceTimersByTimeAsync(29_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({
      success: false,
      error: expect.stringMatching(/^Connection failed to/),
    });
  });

  it('on a 401 refreshes once and retries with the new token', async () => {
    server = await startTestServer({
      'GET /api/v1/dashboard/bots': (req) =>
        req.headers.authorization === 'Bearer fresh'
          ? { json: [1, 2] }
          : { status: 401, json: { detail: 'expired' } },
    });
    const { auth, calls } = fakeAuth('stale', 'fresh');
    const client = createApiClient({ baseUrl: () => server.url, breaker: createCircuitBreaker(), auth });
    expect(await client.get('/api/v1/dashboard/bots')).toEqual({ success: true, data: [1, 2] });
    expect(calls.refresh).toBe(1);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer stale', 'Bearer fresh']);
  });

  it('when the refresh fails, clears auth data and returns requiresLogin', async () => {
    server = await startTestServer({
      'GET /api/v1/agents/': () => ({ status: 401, json: { detail: 'expired' } }),
    });
    const { auth, calls } = fakeAuth('stale', null);
    const client = createApiClient({ baseUrl: () => server.url, breaker: createCircuitBreaker(), auth });
    expect(await client.get('/api/v1/agents/')).toEqual({
      success: false,
      error: 'Authentication expired. Please sign in again.',
      status: 401,
      requiresLogin: true,
    });
    expect(calls).toEqual({ refresh: 1, clear: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('refreshes only once even when the retried call is refused again', async () => {
    server = await startTestServer({ 'GET /api/futures/pnl': () => ({ status: 401, json: {} }) });
    const { auth, calls } = fakeAuth('stale', 'still-bad');
    const client = createApiClient({ baseUrl: () => server.url, breaker: createCircuitBreaker(), auth });
    expect(await client.get('/api/futures/pnl')).toMatchObject({ requiresLogin: true });
    expect(calls.refresh).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it('refreshes first when the access token expires within 30 s, and not at 31 s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T00:00:00Z'));
    server = await startTestServer({ 'GET /api/futures/positions/active': () => ({ json: [] }) });
    const soon = fakeJwt({ exp: Date.now() / 1000 + 30 });
    const later = fakeJwt({ exp: Date.now() / 1000 + 31 });
    const expiring = fakeAuth(soon, 'fresh');
    await createApiClient({
      baseUrl: () => server.url,
      breaker: createCircuitBreaker(),
      auth: expiring.auth,
    }).get('/api/futures/positions/active');
    expect(expiring.calls.refresh).toBe(1);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(['Bearer fresh']);
    const valid = fakeAuth(later, 'unused');
    await createApiClient({
      baseUrl: () => server.url,
      breaker: createCircuitBreaker(),
      auth: valid.auth,
    }).get('/api/futures/positions/active');
    expect(valid.calls.refresh).toBe(0);
    expect(server.requests[1]?.headers.authorization).toBe(`Bearer ${later}`);
  });

  it('hands a prefetched GET to the first call of the same URL, once, and only while it is fresh', async () => {
    server = await startTestServer({
      'GET /api/v1/market/klines/BTCUSDT': () => ({ json: { id: 1, email: 'k' } }),
    });
    const { auth } = fakeAuth(fakeJwt({ exp: Date.now() / 1000 + 600 }), null);
    let clock = Date.now();
    const client = createApiClient({
      baseUrl: () => server.url,
      breaker: createCircuitBreaker(),
      auth,
      now: () => clock,
    });
    client.prefetch('/api/v1/market/klines/BTCUSDT', { interval: '1h', limit: 100 });
    const query = { interval: '1h', limit: 100 };
    // Another URL (other query) is not the prefetched one
    await client.get('/api/v1/market/klines/BTCUSDT', { query: { interval: '4h', limit: 100 } });
    expect(await client.get('/api/v1/market/klines/BTCUSDT', { query, schema: Me })).toEqual({
      success: true,
      data: { id: 1, email: 'k' },
    });
    expect(server.requests.map((r) => r.query.toString()).sort()).toEqual([
      'interval=1h&limit=100',
      'interval=4h&limit=100',
    ]);
    // Taken once: the next call asks again
    await client.get('/api/v1/market/klines/BTCUSDT', { query });
    expect(server.requests).toHaveLength(3);
    // A prefetch older than EARLY_REPLY_MS is not taken
    client.prefetch('/api/v1/market/klines/BTCUSDT', query);
    clock += EARLY_REPLY_MS + 1;
    await client.get('/api/v1/market/klines/BTCUSDT', { query });
    expect(server.requests).toHaveLength(5);
  });

  it('prefetches nothing without a token good for more than 30 s (the real call refreshes it first)', async () => {
    server = await startTestServer({ 'GET /api/v1/dashboard/overview': () => ({ json: {} }) });
    for (const token of [null, fakeJwt({ exp: Date.now() / 1000 + 30 })]) {
      const client = createApiClient({
        baseUrl: () => server.url,
        breaker: createCircuitBreaker(),
        auth: fakeAuth(token, null).auth,
      });
      client.prefetch('/api/v1/dashboard/overview');
    }
    // Anything sent would have arrived by the time a call of its own does
    await createApiClient({ baseUrl: () => server.url, breaker: createCircuitBreaker() }).get(
      '/api/v1/dashboard/overview',
      { authenticated: false },
    );
    expect(server.requests).toHaveLength(1);
  });

  it('fails with the contract problem when a reply does not match its schema', async () => {
    server = await startTestServer({ 'GET /api/v1/auth/me': () => ({ json: { id: 'x' } }) });
    const client = createApiClient({ baseUrl: () => server.url, breaker: createCircuitBreaker() });
    const result = await client.get('/api/v1/auth/me', { schema: Me });
    expect(result).toMatchObject({
      success: false,
      error: expect.stringContaining('Unexpected response from'),
    });
  });

  describe('with the circuit breaker', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    });

    it('blocks calls after 5 consecutive server errors and lets one through 30 s later', async () => {
      let healthy = false;
      server = await startTestServer({
        'GET /api/v1/database/health': () => (healthy ? { json: { ok: true } } : { status: 503, json: {} }),
      });
      const breaker = createCircuitBreaker();
      const client = createApiClient({ baseUrl: () => server.url, breaker });
      for (let i = 0; i < 5; i++) await client.get('/api/v1/database/health');
      expect(await client.get('/api/v1/database/health')).toEqual({
        success: false,
        error: 'Circuit breaker is OPEN - API calls are temporarily blocked.',
      });
      expect(server.requests).toHaveLength(5);
      healthy = true;
      await vi.advanceTimersByTimeAsync(30_000);
      expect(breaker.state).toBe('HALF_OPEN');
      expect(await client.get('/api/v1/database/health')).toMatchObject({ success: true });
      expect(breaker.state).toBe('CLOSED');
    });

    it('does not count calls the caller canceled as backend failures', async () => {
      server = await startTestServer({ 'GET /slow': () => undefined });
      const breaker = createCircuitBreaker();
      const client = createApiClient({ baseUrl: () => server.url, breaker });
      for (let i = 0; i < 6; i++) {
        const controller = new AbortController();
        const pending = client.get('/slow', { signal: controller.signal });
        controller.abort();
        expect(await pending).toEqual({ success: false, error: 'Request canceled' });
      }
      expect(breaker.state).toBe('CLOSED');
    });

    it('does not count client errors (4xx) as backend failures', async () => {
      server = await startTestServer({ 'GET /bad': () => ({ status: 422, json: { detail: 'bad' } }) });
      const breaker = createCircuitBreaker();
      const client = createApiClient({ baseUrl: () => server.url, breaker });
      for (let i = 0; i < 6; i++) await client.get('/bad');
      expect(breaker.state).toBe('CLOSED');
    });
  });
});
