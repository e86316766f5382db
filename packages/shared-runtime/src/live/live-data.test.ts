// @vitest-environment node
import { SOCKET_STREAMS } from '@kestrel/contracts';
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { createSocketBus, type SocketBus, type SocketStatus, type WebSocketLike } from '../socket/socket-bus';
import { startWsServer, type TestWsServer, toolResult } from '../test/ws-server';
import { createLiveData, LIVE_SUBSCRIBE_DEBOUNCE_MS, type LiveData, type LiveStatus } from './live-data';

// The page-level live data over a real bus and a real `ws` server (loopback); the debounce and the grace period
// run on fake timers, frames on the wire are what the server received

const wsClient = (url: string) => new WebSocket(url) as unknown as WebSocketLike;

let server: TestWsServer | undefined;
let bus: SocketBus | undefined;
let live: LiveData | undefined;
afterEach(async () => {
  live?.dispose();
  bus?.disconnect();
  vi.useRealTimers();
  await server?.stop();
  server = undefined;
  bus = undefined;
  live = undefined;
});

/** A server answering every request (so `streams/subscribe` and `tools/call` resolve) */
async function answeringServer() {
  server = await startWsServer((frame, conn) => {
    if ('id' in frame) conn.socket.send(JSON.stringify(toolResult(frame.id, { ok: true })));
  });
  return server;
}

/** Frames manually run, to count emissions per animation frame */
function manualFrames() {
  const queued: Array<() => void> = [];
  return {
    nextFrame: (cb: () => void) => {
      queued.push(cb);
      return () => {
        const i = queued.indexOf(cb);
        if (i >= 0) queued.splice(i, 1);
      };
    },
    run: () => {
      for (const cb of queued.splice(0)) cb();
    },
  };
}

function setUp(url: string, extra: Partial<Parameters<typeof createLiveData>[0]> = {}) {
  bus = createSocketBus({
    baseUrl: () => url,
    token: () => 't',
    createWebSocket: wsClient,
    clientId: 'c-1',
    reconnectDelayUnitMs: 20,
  });
  live = createLiveData({ bus, warn: () => {}, ...extra });
  return { b: bus, l: live };
}

const until = (b: SocketBus, wanted: SocketStatus) =>
  firstValueFrom(b.status$.pipe(filter((s) => s === wanted))).then(() => undefined);

/** Every `streams/subscribe` the server received so far, after a round trip proving earlier frames arrived */
async function subscribes(b: SocketBus) {
  await b.callTool('get_server_status');
  return (server?.frames ?? []).filter((f) => f.method === 'streams/subscribe').map((f) => f.params);
}

describe('page-level subscriptions', () => {
  it('merges the watches of several components into one debounced streams/subscribe, counting references', async () => {
    const s = await answeringServer();
    const warnings: string[] = [];
    const { b, l } = setUp(s.url, { warn: (m) => warnings.push(m) });
    b.connect();
    await until(b, 'connected');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // Nothing watched yet: the server's defaults apply, nothing is sent
    expect(await subscribes(b)).toEqual([]);

    // A page mounts three components in one go
    const watchList = l.watch({ symbols: ['btcusdt', 'ETHUSDT'] });
    const chart = l.watch({ symbols: ['BTCUSDT'], candles: [{ symbol: 'BTCUSDT', interval: '1m' }] });
    const ticker = l.watch({ symbols: ['BTCUSDT'] });
    await vi.advanceTimersByTimeAsync(LIVE_SUBSCRIBE_DEBOUNCE_MS - 1);
    expect(await subscribes(b)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await subscribes(b)).toEqual([
      {
        streams: [...SOCKET_STREAMS],
        symbols: ['BTCUSDT', 'ETHUSDT'],
        candles: [{ symbol: 'BTCUSDT', interval: '1m' }],
      },
    ]);

    // BTCUSDT is still watched by two: nothing changes on the wire
    ticker();
    ticker(); // a second release of the same watch is ignored
    await vi.advanceTimersByTimeAsync(LIVE_SUBSCRIBE_DEBOUNCE_MS);
    expect(await subscribes(b)).toHaveLength(1);

    // The chart unmounts and another chart mounts in the same moment (a route change): one frame, the new pair
    chart();
    const next = l.watch({ candles: [{ symbol: 'ETHUSDT', interval: '15m' }] });
    await vi.advanceTimersByTimeAsync(LIVE_SUBSCRIBE_DEBOUNCE_MS);
    expect((await subscribes(b)).slice(1)).toEqual([
      {
        streams: [...SOCKET_STREAMS],
        symbols: ['BTCUSDT', 'ETHUSDT'],
        candles: [{ symbol: 'ETHUSDT', interval: '15m' }],
      },
    ]);

    // A malformed symbol is left out (the socket would refuse the whole subscription for it), with a warning
    const bad = l.watch({ symbols: ['BTC-USDT'] });
    await vi.advanceTimersByTimeAsync(LIVE_SUBSCRIBE_DEBOUNCE_MS);
    expect(await subscribes(b)).toHaveLength(2);
    expect(warnings).toEqual(['Live data: "BTC-USDT" is not a symbol such as BTCUSDT; not watched']);
    bad();

    // Everything unmounted: the socket is told it watches nothing
    watchList();
    next();
    await vi.advanceTimersByTimeAsync(LIVE_SUBSCRIBE_DEBOUNCE_MS);
    expect((await subscribes(b)).at(-1)).toEqual({ streams: [...SOCKET_STREAMS], symbols: [], candles: [] });
    expect(l.subscription).toEqual({ streams: [...SOCKET_STREAMS], symbols: [], candles: [] });
  });

  it('sends the merged subscription again as the first frame of every new socket', async () => {
    const s = await answeringServer();
    const { b, l } = setUp(s.url);
    l.watch({ symbols: ['SOLUSDT'], candles: [{ symbol: 'SOLUSDT', interval: '1h' }] });
    b.connect();
    const expected = {
      method: 'streams/subscribe',
      params: {
        streams: [...SOCKET_STREAMS],
        symbols: ['SOLUSDT'],
        candles: [{ symbol: 'SOLUSDT', interval: '1h' }],
      },
    };
    expect(await s.nextFrame()).toMatchObject(expected);
    await s.stop();
    await until(b, 'closed');
    const first = s.nextFrame();
    await s.restart();
    expect(await first).toMatchObject(expected);
  });
});

describe('live or paused', () => {
  it('is live while connected, paused while the socket is down, and says when it resumed', async () => {
    const s = await answeringServer();
    const { b, l } = setUp(s.url);
    const seen: LiveStatus[] = [];
    let resumed = 0;
    l.status$.subscribe((v) => seen.push(v));
    l.resumed$.subscribe(() => {
      resumed += 1;
    });
    b.connect();
    await until(b, 'connected');
    expect(l.status).toBe('live');
    await s.stop();
    await until(b, 'closed');
    expect(l.status).toBe('paused');
    await s.restart();
    await until(b, 'connected');
    expect(seen).toEqual(['paused', 'live', 'paused', 'live']);
    // The first connection is not a resume (pages fetch on mount); the reconnect is
    expect(resumed).toBe(1);
  });

  it('gives the first connection the 3 s connect wait before it counts as paused', async () => {
    const s = await answeringServer();
    const url = s.url;
    await s.stop(); // nobody answers
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { b, l } = setUp(url, { firstConnectGraceMs: 3_000 });
    b.connect();
    expect(l.status).toBe('live');
    await vi.advanceTimersByTimeAsync(2_999);
    expect(l.status).toBe('live');
    await vi.advanceTimersByTimeAsync(1);
    expect(l.status).toBe('paused');
  });
});

describe('typed pushes', () => {
  it('hands the latest ticker per watched symbol once per animation frame', async () => {
    const s = await answeringServer();
    const frames = manualFrames();
    const { b, l } = setUp(s.url, { nextFrame: frames.nextFrame });
    b.connect();
    await until(b, 'connected');
    const emitted: Array<ReadonlyMap<string, { lastPrice: string }>> = [];
    const sub = l.tickers$(['btcusdt', 'ETHUSDT']).subscribe((m) => emitted.push(m));
    const ticker = (symbol: string, lastPrice: string, time: number) =>
      s.broadcast({ jsonrpc: '2.0', method: 'notifications/ticker', params: { symbol, lastPrice, time } });
    const last = firstValueFrom(b.tickers$.pipe(filter((t) => t.time === 10)));
    for (let i = 1; i <= 8; i++) ticker('BTCUSDT', `${65_000 + i}`, i);
    ticker('XRPUSDT', '0.5', 9); // not watched here
    ticker('ETHUSDT', '3500', 10);
    await last;
    expect(emitted).toEqual([]);
    frames.run();
    expect(emitted).toHaveLength(1);
    expect([...(emitted[0]?.entries() ?? [])].map(([k, v]) => [k, v.lastPrice])).toEqual([
      ['BTCUSDT', '65008'],
      ['ETHUSDT', '3500'],
    ]);
    frames.run();
    expect(emitted).toHaveLength(1); // nothing new, no emission
    sub.unsubscribe();
  });

  it('passes the candles of the watched stream only, and stops watching when unsubscribed', async () => {
    const s = await answeringServer();
    const { b, l } = setUp(s.url, { debounceMs: 0 });
    b.connect();
    await until(b, 'connected');
    const got: unknown[] = [];
    const sub = l.candles$('btcusdt', '1m').subscribe((c) => got.push(c.close));
    const candle = (interval: string, close: string, time: number) =>
      s.broadcast({
        jsonrpc: '2.0',
        method: 'notifications/candle',
        params: {
          symbol: 'BTCUSDT',
          interval,
          openTime: 0,
          closeTime: 59_999,
          open: '1',
          high: '2',
          low: '0.5',
          close,
          volume: '3',
          closed: false,
          time,
        },
      });
    const last = firstValueFrom(b.candles$.pipe(filter((c) => c.time === 3)));
    candle('1m', '1.5', 1);
    candle('5m', '1.6', 2);
    candle('1m', '1.7', 3);
    await last;
    expect(got).toEqual(['1.5', '1.7']);
    await new Promise((r) => setTimeout(r, 5)); // the (0 ms) debounce
    expect(l.subscription?.candles).toEqual([{ symbol: 'BTCUSDT', interval: '1m' }]);
    sub.unsubscribe();
    await new Promise((r) => setTimeout(r, 5));
    expect(l.subscription?.candles).toEqual([]);
  });
});
