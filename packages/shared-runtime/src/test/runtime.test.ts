// @vitest-environment node
import { RuntimeConfigSchema } from '@kestrel/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  createKestrelRuntime,
  getKestrelRuntime,
  initKestrelRuntime,
  type KestrelRuntime,
  resetKestrelRuntimeForTests,
} from '../runtime';
import type { SocketStatus, WebSocketLike } from '../socket/socket-bus';
import { createMemoryStorage } from '../storage/storage';
import { startTestServer, type TestServer } from './http-server';
import { fakeJwt } from './jwt';
import { startWsServer, type TestWsServer, toolResult } from './ws-server';

let http: TestServer | undefined;
let ws: TestWsServer | undefined;
let runtime: KestrelRuntime | undefined;
afterEach(async () => {
  runtime?.dispose();
  resetKestrelRuntimeForTests();
  await ws?.stop();
  await http?.close();
});

const configFor = (apiBaseUrl: string, socketBaseUrl: string) =>
  RuntimeConfigSchema.parse({
    apiBaseUrl,
    socketBaseUrl,
    remotes: {
      dashboard: 'http://127.0.0.1:1/mf-manifest.json',
      bots: 'http://127.0.0.1:1/mf-manifest.json',
      exchange_connect: 'http://127.0.0.1:1/mf-manifest.json',
      account: 'http://127.0.0.1:1/mf-manifest.json',
    },
  });

const until = (r: KestrelRuntime, wanted: SocketStatus) =>
  new Promise<void>((resolve) => {
    const sub = r.bus.status$.subscribe((s) => {
      if (s === wanted) {
        queueMicrotask(() => sub.unsubscribe());
        resolve();
      }
    });
  });

describe('the wired runtime', () => {
  it('opens the socket with the access token on sign-in and closes it on logout', async () => {
    http = await startTestServer({
      'POST /api/v1/auth/signin': () => ({
        json: {
          success: true,
          access_token: 'acc-1',
          refresh_token: 'r',
          token_type: 'bearer',
          expires_in: 900,
          user: {
            id: '0b9e1c52-6a57-4c1f-a0a3-1f1d2c3b4a59',
            email: 'a@b.c',
            name: null,
            created_at: '2026-01-01T00:00:00Z',
          },
          message: 'Signed in',
        },
      }),
      'POST /api/v1/auth/logout': () => ({ json: { success: true, message: 'Logged out' } }),
    });
    ws = await startWsServer((frame, conn) =>
      conn.socket.send(JSON.stringify(toolResult(frame.id, { status: 'healthy' }))),
    );
    const storage = createMemoryStorage();
    runtime = createKestrelRuntime(configFor(http.url, ws.url), {
      storage,
      createWebSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
    });
    await runtime.start();
    expect(runtime.session.state.status).toBe('signed-out');
    expect(runtime.bus.status).toBe('closed');

    const arrived = ws.nextConnection();
    await runtime.session.signIn({ email: 'a@b.c', password: 'pw' });
    expect((await arrived).query.get('token')).toBe('acc-1');
    expect(await runtime.bus.callTool('get_server_status')).toEqual({ status: 'healthy' });

    await runtime.session.logout();
    await until(runtime, 'closed');
    expect(storage.keys()).toEqual([]);
  });

  it('gathers the exchange, environment and remotes’ toasts in one stream for the shell, notifications apart', async () => {
    runtime = createKestrelRuntime(configFor('http://127.0.0.1:1', 'ws://127.0.0.1:1'), {
      storage: createMemoryStorage(),
    });
    const titles: string[] = [];
    const notified: string[] = [];
    runtime.toasts$.subscribe((t) => titles.push(t.title));
    runtime.notifications$.subscribe((n) => notified.push(n.title));
    // The server decides: unreachable, it switches nothing and the toast says so
    expect(await runtime.environment.switchTo('mainnet')).toBe(false);
    expect(runtime.environment.state.currentEnvironment).toBe('testnet');
    // What a remote calls: its messages join the runtime's own, in the order they were sent
    runtime.notices.toast({ title: 'Bot stopped', variant: 'destructive' });
    runtime.notices.notify({ type: 'success', title: 'Order filled', description: '0.010 BTC at 64,210.5' });
    await runtime.exchanges.connect('kraken', { apiKey: 'k', secretKey: 's' });
    expect(titles).toEqual(['Could not switch to Mainnet', 'Bot stopped', 'Exchange Not Available']);
    expect(notified).toEqual(['Order filled']);
  });

  it('asks for the exchange keys beside the session check of a restored session, the environment after it', async () => {
    const user = {
      id: '0b9e1c52-6a57-4c1f-a0a3-1f1d2c3b4a59',
      email: 'a@b.c',
      name: null,
      created_at: '2026-01-01T00:00:00Z',
    };
    let answerMe: () => void = () => undefined;
    http = await startTestServer({
      // The session check hangs until the test answers it
      'GET /api/v1/auth/me': (_req, res) => {
        answerMe = () =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ success: true, user }));
        return undefined;
      },
      'GET /api/v1/credentials/binance': () => ({ status: 404, json: { detail: 'No credentials' } }),
    });
    const hour = Math.floor(Date.now() / 1000) + 3600;
    const storage = createMemoryStorage({
      'kestrel-access-token': fakeJwt({ sub: user.id, exp: hour }),
      'kestrel-refresh-token': fakeJwt({ sub: user.id, exp: hour + 86400 }),
      'kestrel-user': JSON.stringify(user),
    });
    runtime = createKestrelRuntime(configFor(http.url, 'ws://127.0.0.1:1/ws'), {
      storage,
      createWebSocket: () => ({ close: () => undefined }) as unknown as WebSocketLike,
    });
    const started = runtime.start();
    const paths = () => http?.requests.map((r) => r.path) ?? [];
    await expect
      .poll(paths)
      .toEqual(expect.arrayContaining(['/api/v1/auth/me', '/api/v1/credentials/binance']));
    expect(runtime.session.state).toMatchObject({ status: 'signed-in', provisional: true });
    expect(paths()).not.toContain('/api/v1/environment');
    answerMe();
    await started;
    await expect.poll(paths).toContain('/api/v1/environment');
  });

  it('creates one runtime per page', () => {
    expect(() => getKestrelRuntime()).toThrow(/initKestrelRuntime/);
    const config = configFor('http://127.0.0.1:1', 'ws://127.0.0.1:1');
    const first = initKestrelRuntime(config, { storage: createMemoryStorage() });
    expect(initKestrelRuntime(config)).toBe(first);
    expect(getKestrelRuntime()).toBe(first);
  });
});
