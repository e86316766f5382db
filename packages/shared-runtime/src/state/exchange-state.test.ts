// @vitest-environment node
import { CredentialsFormSchema } from '@kestrel/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createApiClient } from '../api/api-client';
import { createCircuitBreaker } from '../api/circuit-breaker';
import { createSocketBus, type SocketBus, type WebSocketLike } from '../socket/socket-bus';
import { createMemoryStorage, decodeBase64, STORAGE_KEYS } from '../storage/storage';
import { startTestServer, type TestServer } from '../test/http-server';
import { startWsServer, type TestWsServer } from '../test/ws-server';
import { createConnectionTester } from './connection-tester';
import { EXCHANGE_CATALOGUE } from './exchange-catalogue';
import {
  type ConnectionStatus,
  createCredentialsStore,
  createExchangeState,
  type ExchangeStateDeps,
} from './exchange-state';
import type { ToastMessage } from './toast';

const API_KEY = 'dbefbc809e3e83c283a984c3a1459732ea7db1360ca80c5c2c8867408d28cc83';
const SECRET = '2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9';
const account = {
  accountType: 'USDT_FUTURES',
  totalWalletBalance: '1000',
  totalUnrealizedProfit: '0',
  totalMarginBalance: '1000',
  canTrade: true,
  canWithdraw: false,
  canDeposit: true,
  assetsCount: 1,
  positionsCount: 0,
};

let ws: TestWsServer | undefined;
let http: TestServer | undefined;
let bus: SocketBus | undefined;
/** Stops what a test started (also called inside a test that sets up twice) */
async function afterEachCleanup() {
  bus?.disconnect();
  await ws?.stop();
  await http?.close();
  ws = undefined;
  http = undefined;
  bus = undefined;
}

afterEach(afterEachCleanup);

const storeAt = (url: string) =>
  createCredentialsStore(createApiClient({ baseUrl: () => url, breaker: createCircuitBreaker() }));

type ValidateReply = { success: true; data: typeof account } | { success: false; error: string };

/**
 * A real HTTP server for the credentials calls: validate/binance answers as the server does (200 with the account,
 * or 400 with the reason in `detail`), save and delete succeed. Against the real server: src/test/exchange-connect.server.test.ts
 */
async function setup(
  reply: (body: unknown) => ValidateReply = () => ({ success: true, data: account }),
  extra: Partial<ExchangeStateDeps> = {},
) {
  http = await startTestServer({
    'POST /api/v1/credentials/validate/binance': (req) => {
      const answer = reply(req.body);
      return answer.success
        ? { json: { ...answer, message: 'Binance connectivity OK' } }
        : { status: 400, json: { detail: answer.error, message: answer.error, code: 'EXCHANGE_REJECTED' } };
    },
    'POST /api/v1/credentials/binance': () => ({ status: 201, json: { success: true } }),
    'DELETE /api/v1/credentials/binance': () => ({ json: { success: true } }),
  });
  const storage = createMemoryStorage();
  const state = createExchangeState({
    storage,
    credentials: storeAt(http.url),
    testnet: () => false,
    now: () => 1_700_000_000_000,
    ...extra,
  });
  const toasts: ToastMessage[] = [];
  state.toasts$.subscribe((t) => toasts.push(t));
  const statuses: ConnectionStatus[] = [];
  state.connections$.subscribe((c) => statuses.push(c.binance.status));
  return { state, storage, toasts, statuses, http };
}

describe('exchange catalogue (spec §1, §3)', () => {
  it('offers binance with its four features and lists the others as coming soon', () => {
    const byId = Object.fromEntries(EXCHANGE_CATALOGUE.map((e) => [e.id, e]));
    expect(byId.binance).toMatchObject({ isAvailable: true, comingSoon: false });
    expect(byId.binance?.features).toEqual([
      'Spot Trading',
      'Futures Trading',
      'Real-time Data',
      'Advanced Orders',
    ]);
    expect(byId.coinbase).toMatchObject({
      displayName: 'Coinbase Pro',
      isAvailable: false,
      comingSoon: true,
    });
    expect(byId.kraken).toMatchObject({ isAvailable: false, comingSoon: true });
    expect(byId.bybit).toMatchObject({ isAvailable: false, comingSoon: true });
    for (const e of EXCHANGE_CATALOGUE) {
      expect(Object.keys(e).sort()).toEqual(
        ['comingSoon', 'description', 'displayName', 'features', 'id', 'isAvailable', 'logo', 'name'].sort(),
      );
    }
  });
});

describe('exchange connection (spec §4)', () => {
  it('goes disconnected → connecting → connected, selects the exchange and says so', async () => {
    const { state, toasts, statuses, http } = await setup();
    expect(await state.connect('binance', { apiKey: API_KEY, secretKey: SECRET })).toEqual({ success: true });
    expect(statuses).toEqual(['disconnected', 'connecting', 'connected']);
    expect(state.selectedExchange).toBe('binance');
    expect(state.connections.binance).toMatchObject({ lastConnected: 1_700_000_000_000, error: null });
    expect(toasts).toEqual([
      { title: 'Exchange Connected', description: 'Successfully connected to Binance', variant: 'default' },
    ]);
    // Tested by the server first, then stored there
    const body = { api_key: API_KEY, secret_key: SECRET, region: 'global' };
    expect(http.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/api/v1/credentials/validate/binance', body],
      ['POST', '/api/v1/credentials/binance', body],
    ]);
  });

  it('persists connections base64-encoded, and never the secret key', async () => {
    const { state, storage } = await setup();
    await state.connect('binance', { apiKey: API_KEY, secretKey: SECRET });
    const raw = storage.getItem(STORAGE_KEYS.exchangeConnections) ?? '';
    const decoded = JSON.parse(decodeBase64(raw));
    expect(decoded).toEqual([
      expect.objectContaining({
        id: 'binance',
        status: 'connected',
        credentials: { apiKey: 'dbef…cc83', testnet: false },
      }),
    ]);
    expect(storage.getItem(STORAGE_KEYS.selectedExchange)).toBe('binance');
    for (const key of storage.keys()) {
      const value = storage.getItem(key) ?? '';
      expect(value).not.toContain(SECRET);
      expect(value).not.toContain(API_KEY);
      let text = '';
      try {
        text = decodeBase64(value);
      } catch {
        // not base64
      }
      expect(text).not.toContain(SECRET);
    }
    expect(JSON.stringify(state.connections)).not.toContain(SECRET);
  });

  it('restores connections after a reload; an interrupted connect comes back disconnected', async () => {
    const { state, storage } = await setup();
    await state.connect('binance', { apiKey: API_KEY, secretKey: SECRET });
    const reloaded = createExchangeState({ storage, credentials: storeAt(http?.url ?? '') });
    expect(reloaded.connections.binance.status).toBe('connected');
    expect(reloaded.selectedExchange).toBe('binance');

    const interrupted = createMemoryStorage({
      [STORAGE_KEYS.exchangeConnections]: btoa(
        JSON.stringify([
          { id: 'binance', status: 'connecting', credentials: null, lastConnected: null, error: null },
        ]),
      ),
      [STORAGE_KEYS.selectedExchange]: 'binance',
    });
    const after = createExchangeState({ storage: interrupted, credentials: storeAt(http?.url ?? '') });
    expect(after.connections.binance.status).toBe('disconnected');
    expect(after.selectedExchange).toBeNull();

    const corrupt = createMemoryStorage({ [STORAGE_KEYS.exchangeConnections]: '%%%not base64' });
    expect(
      createExchangeState({ storage: corrupt, credentials: storeAt(http?.url ?? '') }).connections.binance
        .status,
    ).toBe('disconnected');
  });

  it('becomes error with the Binance Connectivity Failed toast when the error mentions connectivity', async () => {
    const { state, toasts, statuses } = await setup(() => ({
      success: false,
      error: 'Binance connectivity failed: Invalid API-key, IP, or permissions for action.',
    }));
    const result = await state.connect('binance', { apiKey: API_KEY, secretKey: SECRET });
    expect(result).toMatchObject({ success: false });
    expect(statuses.at(-1)).toBe('error');
    expect(state.connections.binance.error).toBe(
      'Binance connectivity failed: Invalid API-key, IP, or permissions for action.',
    );
    expect(state.selectedExchange).toBeNull();
    expect(toasts).toEqual([
      {
        title: 'Binance Connectivity Failed',
        description: 'Binance connectivity failed for provided keys. Please check and re-submit.',
        variant: 'destructive',
      },
    ]);
  });

  it('shows Connection Failed with the reason for other failures', async () => {
    const { state, toasts } = await setup(() => ({
      success: false,
      error: 'Authentication expired. Please sign in again.',
    }));
    await state.connect('binance', { apiKey: API_KEY, secretKey: SECRET });
    expect(toasts).toEqual([
      {
        title: 'Connection Failed',
        description: 'Authentication expired. Please sign in again.',
        variant: 'destructive',
      },
    ]);
  });

  it('requires both keys', async () => {
    const { state, http } = await setup();
    expect(await state.connect('binance', { apiKey: API_KEY, secretKey: '' })).toEqual({
      success: false,
      error: 'API Key and Secret Key are required',
    });
    expect(state.connections.binance.status).toBe('error');
    expect(http.requests).toHaveLength(0);
  });

  it('refuses exchanges that are not available, and any available one but binance', async () => {
    const { state, toasts } = await setup();
    expect(await state.connect('kraken', { apiKey: 'k', secretKey: 's' })).toEqual({
      success: false,
      title: 'Exchange Not Available',
      error: 'This exchange is not yet supported',
    });
    expect(toasts[0]).toMatchObject({
      title: 'Exchange Not Available',
      description: 'This exchange is not yet supported',
    });
    expect(state.connections.kraken.status).toBe('disconnected');

    const bybitOpen = EXCHANGE_CATALOGUE.map((e) => (e.id === 'bybit' ? { ...e, isAvailable: true } : e));
    const { state: other } = await (async () => {
      await afterEachCleanup();
      return setup(undefined, { catalogue: bybitOpen });
    })();
    expect(await other.connect('bybit', { apiKey: 'k', secretKey: 's' })).toEqual({
      success: false,
      error: 'Exchange not supported yet',
    });
  });

  it('disconnect resets status and credentials, clears the selection and removes the server copy', async () => {
    const { state, toasts, http, storage } = await setup();
    await state.connect('binance', { apiKey: API_KEY, secretKey: SECRET });
    await state.disconnect('binance');
    expect(state.connections.binance).toMatchObject({
      status: 'disconnected',
      credentials: null,
      error: null,
    });
    expect(state.selectedExchange).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.selectedExchange)).toBeNull();
    expect(http.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/credentials/validate/binance',
      'POST /api/v1/credentials/binance',
      'DELETE /api/v1/credentials/binance',
    ]);
    expect(toasts.at(-1)).toMatchObject({ title: 'Exchange Disconnected' });
  });

  it('keys the server no longer has (404) still disconnect; a server that cannot delete them changes nothing', async () => {
    const { state, toasts, http } = await setup();
    await state.connect('binance', { apiKey: API_KEY, secretKey: SECRET });
    http.routes['DELETE /api/v1/credentials/binance'] = () => ({
      status: 500,
      json: { detail: 'Internal Server Error' },
    });
    expect(await state.disconnect('binance')).toEqual({ success: false, error: 'Internal Server Error' });
    expect(state.connections.binance.status).toBe('connected');
    expect(state.selectedExchange).toBe('binance');
    expect(toasts.at(-1)).toEqual({
      title: 'Connection Error',
      description: 'Internal Server Error',
      variant: 'destructive',
    });

    http.routes['DELETE /api/v1/credentials/binance'] = () => ({ status: 404, json: { detail: 'No keys' } });
    expect(await state.disconnect('binance')).toEqual({ success: true });
    expect(state.connections.binance.status).toBe('disconnected');
  });
});

describe('connectivity check (spec §7, §8)', () => {
  const stateAgainst = (url: string) =>
    createExchangeState({ storage: createMemoryStorage(), credentials: storeAt(url) });

  it('reads data.connectivity_status and message', async () => {
    http = await startTestServer({
      'GET /api/v1/credentials/binance/status': () => ({
        json: {
          success: true,
          data: { exchange: 'binance', configured: true, connectivity_status: 'connected' },
          message: 'Keys reach Binance',
        },
      }),
    });
    expect(await stateAgainst(http.url).checkConnectivity('binance')).toEqual({
      success: true,
      connectivityStatus: 'connected',
      message: 'Keys reach Binance',
    });
  });

  it('toasts Failed to check connectivity, Network error or Exchange not supported', async () => {
    http = await startTestServer({
      'GET /api/v1/credentials/binance/status': () => ({ status: 500, json: {} }),
    });
    const state = stateAgainst(http.url);
    const toasts: ToastMessage[] = [];
    state.toasts$.subscribe((t) => toasts.push(t));
    expect(await state.checkConnectivity('binance')).toEqual({
      success: false,
      error: 'Failed to check connectivity',
    });
    expect(await state.checkConnectivity('kraken')).toEqual({
      success: false,
      error: 'Exchange not supported',
    });
    const url = http.url;
    await http.close();
    http = undefined;
    expect(await stateAgainst(url).checkConnectivity('binance')).toEqual({
      success: false,
      error: 'Network error',
    });
    expect(toasts.map((t) => [t.title, t.description])).toEqual([
      ['Connection Error', 'Failed to check connectivity'],
      ['Connection Error', 'Exchange not supported'],
    ]);
  });
});

describe('sync with the keys the server holds', () => {
  const stored = {
    success: true,
    data: {
      exchange: 'binance',
      api_key_masked: 'dbef…cc83',
      region: 'global',
      created_at: '2026-02-01T00:00:00.000Z',
      updated_at: '2026-02-01T00:00:00.000Z',
    },
    message: 'Credentials found',
  };
  const against = (url: string, storage = createMemoryStorage()) =>
    createExchangeState({ storage, credentials: storeAt(url) });

  it('shows binance connected and selected when the server has keys, loading meanwhile', async () => {
    http = await startTestServer({ 'GET /api/v1/credentials/binance': () => ({ json: stored }) });
    const state = against(http.url);
    const loading: boolean[] = [];
    state.loading$.subscribe((l) => loading.push(l));
    await state.sync();
    expect(loading).toEqual([false, true, false]);
    expect(state.connections.binance).toMatchObject({
      status: 'connected',
      credentials: { apiKey: 'dbef…cc83', testnet: false },
    });
    expect(state.selectedExchange).toBe('binance');
  });

  it('shows binance disconnected when the server no longer has keys', async () => {
    http = await startTestServer({
      'GET /api/v1/credentials/binance': () => ({ json: stored }),
    });
    const storage = createMemoryStorage();
    await against(http.url, storage).sync();
    const url = http.url;
    http.routes['GET /api/v1/credentials/binance'] = () => ({
      status: 404,
      json: { detail: 'No credentials' },
    });
    const later = against(url, storage);
    expect(later.connections.binance.status).toBe('connected');
    await later.sync();
    expect(later.connections.binance.status).toBe('disconnected');
    expect(later.selectedExchange).toBeNull();
  });

  it('keeps the local view when the server cannot be reached', async () => {
    http = await startTestServer({ 'GET /api/v1/credentials/binance': () => ({ json: stored }) });
    const storage = createMemoryStorage();
    await against(http.url, storage).sync();
    const url = http.url;
    await http.close();
    http = undefined;
    const offline = against(url, storage);
    await offline.sync();
    expect(offline.connections.binance.status).toBe('connected');
  });
});

describe('connection tester fallback (spec §7)', () => {
  it('signs in the browser when the socket is unavailable, keeping the secret out of the socket', async () => {
    const closed = await startWsServer();
    const url = closed.url;
    await closed.stop();
    const deadBus = createSocketBus({
      baseUrl: () => url,
      token: () => 't',
      createWebSocket: (u) => new WebSocket(u) as unknown as WebSocketLike,
      connectWaitMs: 20,
      maxReconnectAttempts: 0,
    });
    const fallback = vi.fn(async () => ({ success: true as const, data: account }));
    const tester = createConnectionTester({ bus: deadBus, fallback });
    expect(await tester.test({ apiKey: API_KEY, secretKey: SECRET, testnet: false })).toEqual({
      success: true,
      data: account,
      via: 'browser',
    });
    expect(fallback).toHaveBeenCalledWith({ apiKey: API_KEY, secretKey: SECRET, testnet: false });
    deadBus.disconnect();
  });

  it('does not fall back when the server answered, even with an error', async () => {
    ws = await startWsServer((frame, conn) =>
      conn.socket.send(JSON.stringify({ jsonrpc: '2.0', id: frame.id, error: { message: 'Unknown tool' } })),
    );
    const wsUrl = ws.url;
    bus = createSocketBus({
      baseUrl: () => wsUrl,
      token: () => 't',
      createWebSocket: (u) => new WebSocket(u) as unknown as WebSocketLike,
    });
    const fallback = vi.fn();
    const tester = createConnectionTester({ bus, fallback });
    expect(await tester.test({ apiKey: 'k', secretKey: 's', testnet: true })).toEqual({
      success: false,
      error: 'Unknown tool',
      via: 'socket',
    });
    expect(fallback).not.toHaveBeenCalled();
  });
});

describe('form rules (spec §5)', () => {
  it('requires both form fields with the spec messages, and no length rule', () => {
    const empty = CredentialsFormSchema.safeParse({ apiKey: '', secretKey: '' });
    expect(empty.success ? [] : empty.error.issues.map((i) => i.message)).toEqual([
      'API Key is required',
      'Secret Key is required',
    ]);
    expect(CredentialsFormSchema.safeParse({ apiKey: 'k', secretKey: 's' }).success).toBe(true);
  });
});
