// @vitest-environment node
import type { AddressInfo } from 'node:net';
import type { AuthResponse } from '@kestrel/contracts';
import {
  buildTestApp,
  openTestDatabase,
  signUp,
  type TestApp,
  type TestDatabase,
} from '@kestrel/server/testing';
import { filter, firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MESSAGES } from '../spec';
import { createSocketBus, type SocketBus, type SocketStatus, type WebSocketLike } from './socket-bus';

// The bus client against the real server end (Fastify + @fastify/websocket on PGlite), on loopback port 0

/** Never answers: the exchange "hangs", so the client's request timeout is what ends the call */
const hangingProbe = { testAccount: () => new Promise<never>(() => {}) };

let database: TestDatabase;
let server: TestApp;
let keyring: TestApp['keyring'] | undefined;
let port = 0;
let auth: AuthResponse;
let bus: SocketBus | undefined;

/** The server on `atPort` (0: any); a restart keeps the database and keys, so issued tokens stay valid */
async function start(atPort: number): Promise<void> {
  server = await buildTestApp(database.db, { exchange: hangingProbe, ...(keyring && { keyring }) });
  keyring = server.keyring;
  await server.app.listen({ host: '127.0.0.1', port: atPort });
  port = (server.app.server.address() as AddressInfo).port;
}

/** Close codes seen by the client's sockets, to check what a refused token looks like from the browser side */
const closeCodes: { code: number; reason: string }[] = [];
const wsClient = (url: string) => {
  const ws = new WebSocket(url);
  ws.on('close', (code, reason) => closeCodes.push({ code, reason: reason.toString() }));
  return ws as unknown as WebSocketLike;
};

function busFor(token: string, options: { maxReconnectAttempts?: number; requestTimeoutMs?: number } = {}) {
  bus = createSocketBus({
    baseUrl: () => `ws://127.0.0.1:${port}/ws`,
    token: () => token,
    createWebSocket: wsClient,
    reconnectDelayUnitMs: 20,
    ...options,
  });
  return bus;
}

const until = (b: SocketBus, wanted: SocketStatus) =>
  firstValueFrom(b.status$.pipe(filter((s) => s === wanted))).then(() => undefined);

beforeAll(async () => {
  database = await openTestDatabase();
  await start(0);
  auth = await signUp(server);
}, 60_000);
afterEach(() => {
  bus?.disconnect();
  bus = undefined;
});
afterAll(async () => {
  await server.app.close();
  await database.cleanup();
});

describe('socket bus client against the real server', () => {
  it('calls a tool and gets the parsed result', async () => {
    const b = busFor(auth.access_token);
    const status = await b.callTool<{ success: boolean; data: { status: string; database: string } }>(
      'get_server_status',
    );
    expect(status).toMatchObject({ success: true, data: { status: 'ok', database: 'pglite' } });
    expect(b.status).toBe('connected');
  });

  it('surfaces a server tool error as the call’s error message', async () => {
    const b = busFor(auth.access_token);
    await expect(b.callTool('no_such_tool')).rejects.toThrow(/^Unknown tool: no_such_tool\./);
  });

  it('a refused token: the server closes with 4401 and its reason, the call fails as signed out, no retry', async () => {
    const before = closeCodes.filter((c) => c.code === 4401).length;
    const b = busFor('not-a-token');
    await expect(b.callTool('get_server_status')).rejects.toThrow(MESSAGES.authExpired);
    expect(closeCodes).toContainEqual({
      code: 4401,
      reason: 'Access token is invalid. Please sign in again.',
    });
    // One refusal: the bus did not knock again with the same token
    expect(closeCodes.filter((c) => c.code === 4401).length - before).toBe(1);
    expect(b.status).toBe('closed');
  });

  it('a refused token with a session to refresh: one refresh, then the call goes through on the new token', async () => {
    let token = 'expired-or-forged';
    const refresh = async () => {
      token = auth.access_token;
      return true;
    };
    bus = createSocketBus({
      baseUrl: () => `ws://127.0.0.1:${port}/ws`,
      token: () => token,
      createWebSocket: wsClient,
      auth: { refresh, clear: () => {} },
    });
    await expect(bus.callTool('get_server_status')).resolves.toMatchObject({ success: true });
  });

  it('times out a call the server does not answer in time with "Request timeout"', async () => {
    const b = busFor(auth.access_token, { requestTimeoutMs: 200 });
    await expect(
      b.callTool('test_binance_connection', { api_key: 'k', secret_key: 's', testnet: false }),
    ).rejects.toThrow(MESSAGES.socketRequestTimeout);
    // The socket survives the timeout
    await expect(b.callTool('get_server_status')).resolves.toMatchObject({ success: true });
  });

  it('receives a push for its user as a typed observable', async () => {
    const b = busFor(auth.access_token);
    await b.callTool('get_server_status'); // connected and registered
    const next = firstValueFrom(b.orders$);
    const order = { symbol: 'BTCUSDT', orderId: '77', status: 'NEW', time: 123 };
    await server.app.socketBus.publish(auth.user.id, { kind: 'order', data: order });
    expect(await next).toEqual(order);
  });

  it('reconnects after a server restart and answers again', async () => {
    const b = busFor(auth.access_token);
    await b.callTool('get_server_status');
    const closed = until(b, 'closed');
    await server.app.close();
    await closed;
    const reconnected = until(b, 'connected');
    await start(port); // the same address the client keeps retrying
    await reconnected;
    await expect(b.callTool('get_server_status')).resolves.toMatchObject({ success: true });
  });
});
