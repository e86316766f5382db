import { QueryObserver } from '@tanstack/react-query';
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createLiveData, type LiveData } from '../live/live-data';
import { createSocketBus, type SocketBus, type SocketStatus, type WebSocketLike } from '../socket/socket-bus';
import { startWsServer, type TestWsServer, toolResult } from '../test/ws-server';
import { LIVE_POLL_INTERVAL_MS, LIVE_REFETCH_COALESCE_MS } from './live-queries';
import { createQueryClient } from './query-client';

// The shell's QueryClient wired to the live data of a real bus on a real `ws` server: what each query fetches
// when notices arrive, while the socket is down, and when it comes back. Timers are fake once the page is up

const wsClient = (url: string) => new WebSocket(url) as unknown as WebSocketLike;

let server: TestWsServer | undefined;
let bus: SocketBus | undefined;
let live: LiveData | undefined;
const stops: Array<() => void> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  live?.dispose();
  bus?.disconnect();
  vi.useRealTimers();
  await server?.stop();
  server = undefined;
});

const until = (b: SocketBus, wanted: SocketStatus) =>
  firstValueFrom(b.status$.pipe(filter((s) => s === wanted))).then(() => undefined);

const KEYS = {
  positions: ['futures', 'positions', 'active'],
  orders: ['futures', 'orders', 'active'],
  overview: ['dashboard', 'overview'],
  tickers: ['market', 'data', 'BTCUSDT'],
  symbolRules: ['futures', 'symbols', 'info'],
  backtests: ['backtests', 'list'],
} as const;
type Name = keyof typeof KEYS;

/** A signed-in page: connected bus, the shell's QueryClient, one mounted query per key counting its fetches */
async function page() {
  server = await startWsServer((frame, conn) => {
    if ('id' in frame) conn.socket.send(JSON.stringify(toolResult(frame.id, { ok: true })));
  });
  bus = createSocketBus({
    baseUrl: () => server?.url ?? '',
    token: () => 't',
    createWebSocket: wsClient,
    // The reconnect comes a minute after a drop: time enough to watch the polling
    reconnectDelayUnitMs: 60_000,
  });
  live = createLiveData({ bus, warn: () => {} });
  const client = createQueryClient({ live });
  const fetches = Object.fromEntries(Object.keys(KEYS).map((k) => [k, 0])) as Record<Name, number>;
  for (const [name, queryKey] of Object.entries(KEYS) as Array<[Name, readonly string[]]>) {
    const observer = new QueryObserver(client, {
      queryKey,
      queryFn: async () => {
        fetches[name] += 1;
        return fetches[name];
      },
    });
    stops.push(observer.subscribe(() => {}));
  }
  bus.connect();
  await until(bus, 'connected');
  await vi.waitFor(() => expect(Object.values(fetches)).toEqual([1, 1, 1, 1, 1, 1]));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  return { b: bus, l: live, s: server, fetches };
}

const notice = (method: string, params: Record<string, unknown>) => ({ jsonrpc: '2.0', method, params });

describe('queries under the live keys follow the socket', () => {
  it('a burst of account notices makes one refetch of each account query, market and others untouched', async () => {
    const { b, s, fetches } = await page();
    const last = firstValueFrom(b.balances$.pipe(filter((x) => x.time === 99)));
    for (let i = 0; i < 12; i++) {
      s.broadcast(
        notice('notifications/order', { symbol: 'BTCUSDT', orderId: `${i}`, status: 'NEW', time: i }),
      );
    }
    s.broadcast(notice('notifications/position', { symbol: 'BTCUSDT', time: 50 }));
    s.broadcast(notice('notifications/balance', { asset: 'USDT', time: 99 }));
    await last;
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_COALESCE_MS);
    expect(fetches).toEqual({
      positions: 2,
      orders: 2,
      overview: 2,
      tickers: 1,
      symbolRules: 1,
      backtests: 1,
    });
  });

  it('polls every 5 s while paused, then refetches each live query once on reconnect, however many notices come', async () => {
    const { b, l, s, fetches } = await page();
    await s.stop();
    await until(b, 'closed');
    expect(l.status).toBe('paused');

    await vi.advanceTimersByTimeAsync(LIVE_POLL_INTERVAL_MS * 2);
    // Two polling rounds for the live data (account and market); exchange rules and other pages' data are left
    expect(fetches).toEqual({
      positions: 3,
      orders: 3,
      overview: 3,
      tickers: 3,
      symbolRules: 1,
      backtests: 1,
    });

    // The server comes back; on the new socket it sends what piled up: fills, balance changes and its RESYNC
    const arrived = s.nextConnection().then((conn) => {
      const send = (m: string, p: Record<string, unknown>) => conn.socket.send(JSON.stringify(notice(m, p)));
      for (let i = 0; i < 20; i++)
        send('notifications/order', { symbol: 'BTCUSDT', orderId: `${i}`, status: 'FILLED', time: i });
      send('notifications/balance', { asset: '*', reason: 'RESYNC', time: 100 });
      send('notifications/position', { symbol: '*', reason: 'RESYNC', time: 101 });
    });
    await s.restart();
    const resync = firstValueFrom(b.positions$.pipe(filter((p) => p.time === 101)));
    await vi.advanceTimersByTimeAsync(60_000 - LIVE_POLL_INTERVAL_MS * 2);
    await arrived;
    await until(b, 'connected');
    await resync;
    expect(l.status).toBe('live');
    const before = { ...fetches };
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_COALESCE_MS);
    expect(fetches).toEqual({
      positions: before.positions + 1,
      orders: before.orders + 1,
      overview: before.overview + 1,
      tickers: before.tickers + 1,
      symbolRules: 1,
      backtests: 1,
    });
    // Live again: no more polling
    await vi.advanceTimersByTimeAsync(LIVE_POLL_INTERVAL_MS * 3);
    expect(fetches.positions).toBe(before.positions + 1);
  });
});
