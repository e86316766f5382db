// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { MESSAGES } from '../spec';
import { startWsServer, type TestWsServer, toolResult } from '../test/ws-server';
import { createSocketBus, type SocketBus, type SocketStatus, type WebSocketLike } from './socket-bus';

const wsClient = (url: string) => new WebSocket(url) as unknown as WebSocketLike;

let server: TestWsServer | undefined;
let bus: SocketBus | undefined;
afterEach(async () => {
  bus?.disconnect();
  vi.useRealTimers();
  await server?.stop();
  server = undefined;
  bus = undefined;
});

function busFor(url: string, token: string | null = 'tok en') {
  bus = createSocketBus({
    baseUrl: () => url,
    token: () => token,
    createWebSocket: wsClient,
    clientId: 'c-1',
  });
  return bus;
}

const until = (b: SocketBus, wanted: SocketStatus) =>
  new Promise<void>((resolve) => {
    const sub = b.status$.subscribe((s) => {
      if (s === wanted) {
        queueMicrotask(() => sub.unsubscribe());
        resolve();
      }
    });
  });

describe('live socket bus against a real ws server', () => {
  it('connects to {ws host}/{client id} with the token as a query parameter', async () => {
    server = await startWsServer();
    const b = busFor(server.url);
    const arrived = server.nextConnection();
    b.connect();
    const conn = await arrived;
    expect(conn.path).toBe('/ws/c-1');
    expect(conn.query.get('token')).toBe('tok en');
    await until(b, 'connected');
  });

  it('stays closed and fails calls when the server refuses the token', async () => {
    server = await startWsServer(() => {}, { token: 'good' });
    const b = busFor(server.url, 'bad');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let outcome: unknown;
    const call = b.callTool('get_server_status').catch((e: Error) => {
      outcome = e.message;
    });
    await until(b, 'closed');
    await vi.advanceTimersByTimeAsync(3_000);
    await call;
    expect(outcome).toBe('Not connected to MCP server');
    expect(server.connections).toHaveLength(0);
  });

  describe('a token refused with close code 4401 (the server end’s answer)', () => {
    /** A bus whose session can refresh: `refreshTo` is the token a refresh yields, or null when it fails */
    function refreshingBus(url: string, first: string, refreshTo: string | null) {
      let token: string | null = first;
      const auth = {
        refresh: vi.fn(async () => {
          if (refreshTo === null) return false;
          token = refreshTo;
          return true;
        }),
        clear: vi.fn(() => {
          token = null;
        }),
      };
      bus = createSocketBus({
        baseUrl: () => url,
        token: () => token,
        createWebSocket: wsClient,
        clientId: 'c-1',
        auth,
      });
      const seen: boolean[] = [];
      bus.requiresLogin$.subscribe((v) => seen.push(v));
      return { b: bus, auth, seen };
    }

    it('refreshes the session once and reconnects with the new token', async () => {
      server = await startWsServer(
        (frame, conn) => conn.socket.send(JSON.stringify(toolResult(frame.id, { status: 'ok' }))),
        { token: 'fresh', refuse: 'close-4401' },
      );
      const { b, auth, seen } = refreshingBus(server.url, 'stale', 'fresh');
      await expect(b.callTool('get_server_status')).resolves.toEqual({ status: 'ok' });
      expect(server.connections.map((c) => c.query.get('token'))).toEqual(['stale', 'fresh']);
      expect(auth.refresh).toHaveBeenCalledTimes(1);
      expect(auth.clear).not.toHaveBeenCalled();
      expect(seen).toEqual([false]);
    });

    it('when the refresh fails: clears auth data, reports requiresLogin, fails calls at once, never reconnects', async () => {
      server = await startWsServer(() => {}, { token: 'fresh', refuse: 'close-4401' });
      const { b, auth, seen } = refreshingBus(server.url, 'stale', null);
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      await expect(b.callTool('get_server_status')).rejects.toThrow(MESSAGES.authExpired);
      expect(auth.refresh).toHaveBeenCalledTimes(1);
      expect(auth.clear).toHaveBeenCalledTimes(1);
      expect(seen).toEqual([false, true]);
      // Not the five reconnect attempts of a network fault: the refused token is final
      await vi.advanceTimersByTimeAsync(60_000);
      expect(server.connections).toHaveLength(1);
      expect(b.status).toBe('closed');
    });

    it('a second refusal right after a refresh is final: one refresh, never a loop', async () => {
      server = await startWsServer(() => {}, { token: 'accepted-nowhere', refuse: 'close-4401' });
      const { b, auth, seen } = refreshingBus(server.url, 'stale', 'also-refused');
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      await expect(b.callTool('get_server_status')).rejects.toThrow(MESSAGES.authExpired);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(server.connections.map((c) => c.query.get('token'))).toEqual(['stale', 'also-refused']);
      expect(auth.refresh).toHaveBeenCalledTimes(1);
      expect(auth.clear).toHaveBeenCalledTimes(1);
      expect(seen.at(-1)).toBe(true);
    });

    it('without a session to refresh, the refusal is final at once', async () => {
      server = await startWsServer(() => {}, { token: 'good', refuse: 'close-4401' });
      const b = busFor(server.url, 'bad');
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      await expect(b.callTool('get_server_status')).rejects.toThrow(MESSAGES.authExpired);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(server.connections).toHaveLength(1);
    });

    it('connect() after signing in again starts afresh', async () => {
      server = await startWsServer(() => {}, { token: 'fresh', refuse: 'close-4401' });
      const { b, seen } = refreshingBus(server.url, 'stale', null);
      await expect(b.callTool('get_server_status')).rejects.toThrow(MESSAGES.authExpired);
      b.connect();
      expect(seen.at(-1)).toBe(false);
    });
  });

  it('sends the page’s stream choice, and sends it again on every new socket', async () => {
    server = await startWsServer((frame, conn) => {
      conn.socket.send(JSON.stringify(toolResult(frame.id, { ok: true })));
    });
    const b = busFor(server.url);
    const choice = { streams: ['ticker' as const, 'order' as const], symbols: ['SOLUSDT'] };
    await b.subscribe(choice); // not connected yet: kept for the socket to come
    b.connect();
    const first = await server.nextFrame();
    expect(first).toMatchObject({ jsonrpc: '2.0', method: 'streams/subscribe', params: choice });
    await until(b, 'connected');
    await server.stop();
    await until(b, 'closed');
    await server.restart();
    expect(await server.nextFrame()).toMatchObject({ method: 'streams/subscribe', params: choice });
    // While connected, subscribe resolves once the server has answered
    await until(b, 'connected');
    await b.subscribe({ streams: ['markPrice'] });
    expect(server.frames.at(-1)).toMatchObject({
      method: 'streams/subscribe',
      params: { streams: ['markPrice'] },
    });
  });

  it('frames calls as JSON-RPC 2.0 tools/call and resolves with the parsed result.content[0].text', async () => {
    server = await startWsServer((frame, conn) => {
      conn.socket.send(JSON.stringify(toolResult(frame.id, { status: 'ok', uptime: 3 })));
    });
    const b = busFor(server.url);
    const reply = b.callTool('get_server_status');
    expect(await server.nextFrame()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_server_status', arguments: {} },
    });
    expect(await reply).toEqual({ status: 'ok', uptime: 3 });
  });

  it('passes arguments and matches replies to requests by id, whatever their order', async () => {
    const held: Array<{ id: unknown; name: unknown }> = [];
    server = await startWsServer((frame, conn) => {
      const params = frame.params as { name: string; arguments: Record<string, unknown> };
      held.push({ id: frame.id, name: params.arguments.n });
      if (held.length === 2) {
        for (const h of held.reverse()) conn.socket.send(JSON.stringify(toolResult(h.id, h.name)));
      }
    });
    const b = busFor(server.url);
    const [one, two] = await Promise.all([
      b.callTool('get_account_balance', { n: 'one' }),
      b.callTool('get_account_balance', { n: 'two' }),
    ]);
    expect([one, two]).toEqual(['one', 'two']);
  });

  it('rejects with error.message from the server', async () => {
    server = await startWsServer((frame, conn) => {
      conn.socket.send(
        JSON.stringify({ jsonrpc: '2.0', id: frame.id, error: { code: -32601, message: 'Unknown tool' } }),
      );
    });
    await expect(busFor(server.url).callTool('nope')).rejects.toThrow('Unknown tool');
  });

  it('fails a call with "Request timeout" after 10 s without a reply', async () => {
    server = await startWsServer(); // never replies
    const b = busFor(server.url);
    b.connect();
    await until(b, 'connected');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let outcome: unknown;
    const call = b.callTool('get_server_status').catch((e: Error) => {
      outcome = e.message;
    });
    await server.nextFrame();
    await vi.advanceTimersByTimeAsync(9_999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(outcome).toBe('Request timeout');
  });

  it('fails with "Not connected to MCP server" when no socket opens within 3 s', async () => {
    server = await startWsServer();
    const url = server.url;
    await server.stop();
    server = undefined;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const b = busFor(url);
    let outcome: unknown;
    const call = b.callTool('get_server_status').catch((e: Error) => {
      outcome = e.message;
    });
    await vi.advanceTimersByTimeAsync(2_999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(outcome).toBe('Not connected to MCP server');
  });

  it('reconnects on close up to 5 times, waiting 1 s times the attempt number', async () => {
    server = await startWsServer();
    const b = busFor(server.url);
    b.connect();
    await until(b, 'connected');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const log: Array<[SocketStatus, number]> = [];
    b.status$.subscribe((s) => log.push([s, Date.now()]));
    await server.stop(); // refuses every reconnect from now on
    for (let attempt = 1; attempt <= 5; attempt++) {
      if (b.status !== 'closed') await until(b, 'closed');
      await vi.advanceTimersByTimeAsync(1_000 * attempt);
    }
    if (b.status !== 'closed') await until(b, 'closed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(b.status).toBe('closed');
    // delay between each close and the next attempt
    const delays = log
      .map(([s, t], i) =>
        s === 'connecting' && log[i - 1]?.[0] === 'closed' ? t - (log[i - 1]?.[1] ?? 0) : null,
      )
      .filter((d) => d !== null);
    expect(delays).toEqual([1_000, 2_000, 3_000, 4_000, 5_000]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reconnects after a server restart and serves calls again', async () => {
    server = await startWsServer((frame, conn) =>
      conn.socket.send(JSON.stringify(toolResult(frame.id, 'pong'))),
    );
    const b = busFor(server.url);
    b.connect();
    await until(b, 'connected');
    await server.stop();
    await until(b, 'closed');
    const back = server.nextConnection();
    await server.restart();
    await back;
    await until(b, 'connected');
    expect(await b.callTool('get_server_status')).toBe('pong');
  });

  it('fails calls in flight when the socket drops', async () => {
    server = await startWsServer();
    const b = busFor(server.url);
    const call = b.callTool('get_account_balance');
    await server.nextFrame();
    await server.stop();
    await expect(call).rejects.toThrow('Not connected to MCP server');
  });

  it('turns server pushes into typed streams and drops malformed ones', async () => {
    server = await startWsServer();
    const b = busFor(server.url);
    const tickers: unknown[] = [];
    const orders: unknown[] = [];
    b.tickers$.subscribe((t) => tickers.push(t));
    b.orders$.subscribe((o) => orders.push(o));
    const arrived = server.nextConnection();
    b.connect();
    await arrived;
    await until(b, 'connected');
    const gotOrder = new Promise((resolve) => b.orders$.subscribe(resolve));
    server.broadcast({ jsonrpc: '2.0', method: 'notifications/ticker', params: { symbol: 'BTCUSDT' } }); // no price
    server.broadcast({
      jsonrpc: '2.0',
      method: 'notifications/ticker',
      params: { symbol: 'BTCUSDT', lastPrice: '65000.10', time: 1 },
    });
    server.broadcast({
      jsonrpc: '2.0',
      method: 'notifications/order',
      params: { symbol: 'BTCUSDT', orderId: '8389765612825190229', status: 'FILLED', time: 2 },
    });
    await gotOrder;
    expect(tickers).toEqual([{ symbol: 'BTCUSDT', lastPrice: '65000.10', time: 1 }]);
    expect(orders).toEqual([
      { symbol: 'BTCUSDT', orderId: '8389765612825190229', status: 'FILLED', time: 2 },
    ]);
  });

  it('does not reconnect after a deliberate disconnect', async () => {
    server = await startWsServer();
    const b = busFor(server.url);
    b.connect();
    await until(b, 'connected');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    b.disconnect();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(b.status).toBe('closed');
    expect(server.connections).toHaveLength(1);
  });
});

describe('live socket bus without a usable URL', () => {
  it('reports closed instead of hanging in connecting when the socket cannot be created', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const b = createSocketBus({
      baseUrl: () => 'not a url',
      token: () => 'secret-access-token',
      createWebSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
    });
    b.connect();
    expect(b.status).toBe('closed');
    expect(errors).toHaveBeenCalledOnce();
    expect(JSON.stringify(errors.mock.calls)).not.toContain('token=');
    errors.mockRestore();
  });
});
