// @vitest-environment node
import type { AddressInfo } from 'node:net';
import { signUp, startTestServer, type TestServer } from '@kestrel/server/testing';
import { filter, firstValueFrom, type Observable } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createSocketBus, type SocketBus, type WebSocketLike } from '../socket/socket-bus';
import { createLiveData, type LiveData } from './live-data';

// The page-level live data end to end: the real server (Fastify, PGlite) following the exchange simulator, and
// the browser's bus and live data over a real socket. Pages' watches become the server's upstream streams

let t: TestServer;
/** The simulator's clock: `startTestServer` gives it a manual one, which moves only when the test sets it */
let clock: { now(): number; set(ms: number): void };
let port = 0;
let bus: SocketBus;
let live: LiveData;
const warnings: string[] = [];

beforeAll(async () => {
  t = await startTestServer({
    simulator: { historyDays: 1, symbols: ['BTCUSDT', 'ETHUSDT'] },
    env: { KESTREL_LIVE_SYMBOLS: 'ETHUSDT' },
    deps: { liveStreamLingerMs: 200 },
  });
  const simClock = t.sim.exchange.clock;
  if (!('set' in simClock) || typeof simClock.set !== 'function') throw new Error('expected a manual clock');
  clock = simClock as typeof clock;
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
  const auth = await signUp(t);
  bus = createSocketBus({
    baseUrl: () => `ws://127.0.0.1:${port}/ws`,
    token: () => auth.access_token,
    createWebSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
  });
  live = createLiveData({ bus, debounceMs: 10, warn: (m) => warnings.push(m) });
  bus.connect();
  await firstValueFrom(bus.status$.pipe(filter((s) => s === 'connected')));
}, 60_000);
afterAll(async () => {
  live?.dispose();
  bus?.disconnect();
  await t?.close();
});

/** Moves the simulator a second at a time until `source` emits a value matching `match` */
async function stepUntil<T>(source: Observable<T>, match: (v: T) => boolean = () => true): Promise<T> {
  const found = firstValueFrom(source.pipe(filter(match)));
  let done = false;
  void found.finally(() => {
    done = true;
  });
  while (!done) {
    clock.set(clock.now() + 1000);
    t.sim.tick();
    await new Promise((r) => setTimeout(r, 10));
  }
  return found;
}

describe('live data from the simulator to the page', () => {
  it('a chart and a market watch get their candles and tickers, and the server streams what they watch', async () => {
    const candles = live.candles$('btcusdt', '1m');
    const tickers = live.tickers$(['BTCUSDT']);
    // The two components stay mounted for the whole test
    const mounted = [candles.subscribe(), tickers.subscribe()];
    const closed = await stepUntil(candles, (c) => c.closed);
    expect(closed).toMatchObject({ symbol: 'BTCUSDT', interval: '1m', closed: true });
    expect(closed.openTime % 60_000).toBe(0);
    const latest = await stepUntil(tickers, (m) => m.has('BTCUSDT'));
    expect(latest.get('BTCUSDT')?.lastPrice).toMatch(/^\d+(\.\d+)?$/);
    expect(t.app.liveStreams?.candleStreams).toEqual(['BTCUSDT@1m']);
    // The page's watch replaced the server's default list (ETHUSDT)
    expect(t.app.liveStreams?.marketSymbols).toEqual(['BTCUSDT']);
    for (const m of mounted) m.unsubscribe();
  });

  it('a chart on a symbol the exchange does not list is refused, and the rest of the page keeps streaming', async () => {
    const watchList = live.tickers$(['ETHUSDT']);
    const mounted = [live.candles$('NOPEUSDT', '1m').subscribe(), watchList.subscribe()];
    await new Promise((r) => setTimeout(r, 200));
    expect(warnings).toContain(
      'Live data: the socket refused the subscription (Invalid params: candles: the exchange does not list NOPEUSDT)',
    );
    // Sent again without the refused symbol: the market watch gets its tickers
    expect(live.subscription).toMatchObject({ symbols: ['ETHUSDT'], candles: [] });
    const latest = await stepUntil(watchList, (m) => m.has('ETHUSDT'));
    expect(latest.get('ETHUSDT')?.symbol).toBe('ETHUSDT');
    for (const m of mounted) m.unsubscribe();
  });
});
