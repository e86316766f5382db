import type { AddressInfo } from 'node:net';
import { ManualClock, SimServer } from '@kestrel/exchange-sim';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { ManualClock as TimerClock } from '../../lib/clock';
import { BinanceUsdmAdapter } from './binance-adapter';
import { IgnoredAnswer } from './binance-schemas';
import type { BinanceStreamOptions } from './binance-stream-options';
import type { ExchangeKeys } from './exchange-adapter';
import type {
  MarketEvent,
  MarketStream,
  OrderUpdateEvent,
  StreamState,
  UserDataEvent,
  UserDataStream,
} from './exchange-streams';

// The adapter's streams against the simulator's routed WebSocket paths; the simulator's clock moves by hand

const T0 = Date.UTC(2026, 0, 15, 9, 30, 0);

let sim: SimServer;
let url: string;
let wsUrl: string;
let clock: ManualClock;
const toClose: Array<MarketStream | UserDataStream> = [];

beforeEach(async () => {
  clock = new ManualClock(T0);
  sim = new SimServer({
    clock,
    historyDays: 2,
    seed: 3,
    symbols: ['BTCUSDT', 'SOLUSDT'],
    streams: { connectionLifetimeMs: 10 * 60_000 },
  });
  ({ url, wsUrl } = await sim.listen(0));
});
afterEach(async () => {
  for (const s of toClose.splice(0)) await s.close();
  await sim.close();
});

/** Moves the simulator's clock and lets it emit what happened meanwhile */
function step(ms: number): void {
  clock.set(clock.now() + ms);
  sim.tick();
}

const fast: BinanceStreamOptions = { reconnectInitialMs: 10, reconnectMaxMs: 50 };
const adapterFor = (options: BinanceStreamOptions = {}) =>
  new BinanceUsdmAdapter({ restUrl: url, walletUrl: url, wsUrl, streams: { ...fast, ...options } });

async function account(): Promise<ExchangeKeys> {
  const res = await fetch(`${url}/_sim/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ balances: { USDT: '1000' } }),
  });
  const created = (await res.json()) as { apiKey: string; secretKey: string };
  return { apiKey: created.apiKey, secretKey: created.secretKey };
}

/** Collects a stream's events and states; `next` waits for the first (seen or coming) one that matches */
function recorder<E>() {
  const events: E[] = [];
  const states: Array<{ state: StreamState; gap: boolean }> = [];
  const waiters: Array<{ match: (e: E) => boolean; resolve: (e: E) => void }> = [];
  /** Events before this index were already handed to a `next` */
  let cursor = 0;
  const stateWaiters: Array<{ match: (s: StreamState, gap: boolean) => boolean; resolve: () => void }> = [];
  return {
    events,
    states,
    handlers: {
      onEvent(e: E) {
        events.push(e);
        for (const w of [...waiters]) {
          if (w.match(e)) {
            waiters.splice(waiters.indexOf(w), 1);
            cursor = events.length;
            w.resolve(e);
          }
        }
      },
      onState(state: StreamState, info: { gap: boolean }) {
        states.push({ state, gap: info.gap });
        for (const w of [...stateWaiters]) {
          if (w.match(state, info.gap)) {
            stateWaiters.splice(stateWaiters.indexOf(w), 1);
            w.resolve();
          }
        }
      },
    },
    /** The first event not yet handed out that matches (already seen or coming) */
    next(match: (e: E) => boolean): Promise<E> {
      const i = events.findIndex((e, idx) => idx >= cursor && match(e));
      if (i >= 0) {
        cursor = i + 1;
        return Promise.resolve(events[i] as E);
      }
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    /** The first event from now on that matches */
    upcoming(match: (e: E) => boolean): Promise<E> {
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    state(match: (s: StreamState, gap: boolean) => boolean): Promise<void> {
      if (states.some((s) => match(s.state, s.gap))) return Promise.resolve();
      return new Promise((resolve) => stateWaiters.push({ match, resolve }));
    },
    /** Waits for the next state matching, ignoring those already seen */
    nextState(match: (s: StreamState, gap: boolean) => boolean): Promise<void> {
      return new Promise((resolve) => stateWaiters.push({ match, resolve }));
    },
  };
}

/** Steps the simulator every few ms until `done` settles: stream payloads only flow when time moves */
async function stepping<T>(done: Promise<T>, ms = 1000): Promise<T> {
  let settled = false;
  void done.finally(() => {
    settled = true;
  });
  while (!settled) {
    step(ms);
    await new Promise((r) => setTimeout(r, 5));
  }
  return done;
}

describe('market streams', () => {
  it('delivers ticker, mark price, book ticker and kline events in our terms, and follows add/remove', async () => {
    const adapter = adapterFor();
    expect(adapter.capabilities.liveStreams).toBe(true);
    const r = recorder<MarketEvent>();
    const stream = adapter.streams?.marketStream(r.handlers) as MarketStream;
    toClose.push(stream);
    stream.add([
      { symbol: 'BTCUSDT', kind: 'ticker' },
      { symbol: 'btcusdt', kind: 'markPrice' },
      { symbol: 'SOLUSDT', kind: 'bookTicker' },
      { symbol: 'SOLUSDT', kind: 'kline', interval: '1m' },
    ]);
    const [ticker, mark, book, kline] = await stepping(
      Promise.all([
        r.upcoming((e) => e.type === 'ticker'),
        r.upcoming((e) => e.type === 'markPrice'),
        r.upcoming((e) => e.type === 'bookTicker'),
        r.upcoming((e) => e.type === 'kline'),
      ]),
    );
    expect(ticker).toMatchObject({ symbol: 'BTCUSDT', lastPrice: expect.stringMatching(/^\d+\.\d+$/) });
    const rest = await adapter.ticker('BTCUSDT');
    expect(Number(ticker?.type === 'ticker' && ticker.lastPrice)).toBeGreaterThan(
      Number(rest.lowPrice) * 0.9,
    );
    expect(mark).toMatchObject({ symbol: 'BTCUSDT', markPrice: expect.stringMatching(/^\d+\.\d+$/) });
    expect(book).toMatchObject({ symbol: 'SOLUSDT' });
    if (book?.type === 'bookTicker') expect(Number(book.askPrice)).toBeGreaterThan(Number(book.bidPrice));
    expect(kline).toMatchObject({ symbol: 'SOLUSDT', interval: '1m', closed: false });

    // Dropping BTCUSDT's streams stops its events; SOLUSDT's go on
    stream.remove([
      { symbol: 'BTCUSDT', kind: 'ticker' },
      { symbol: 'BTCUSDT', kind: 'markPrice' },
    ]);
    await stepping(r.upcoming((e) => e.symbol === 'SOLUSDT' && e.type === 'kline'));
    // The UNSUBSCRIBE has been answered once a SUBSCRIBE sent after it is: add one and wait for its first event
    stream.add([{ symbol: 'SOLUSDT', kind: 'markPrice' }]);
    await stepping(r.upcoming((e) => e.symbol === 'SOLUSDT' && e.type === 'markPrice'));
    const before = r.events.length;
    await stepping(r.upcoming((e) => e.symbol === 'SOLUSDT' && e.type === 'markPrice'));
    expect(r.events.slice(before).filter((e) => e.symbol === 'BTCUSDT')).toEqual([]);
    expect(stream.topics.map((t) => `${t.symbol}:${t.kind}`).sort()).toEqual([
      'SOLUSDT:bookTicker',
      'SOLUSDT:kline',
      'SOLUSDT:markPrice',
    ]);
  });

  it('reconnects and resubscribes after the exchange drops every socket, and says a gap happened', async () => {
    const r = recorder<MarketEvent>();
    const stream = adapterFor().streams?.marketStream(r.handlers) as MarketStream;
    toClose.push(stream);
    stream.add([{ symbol: 'BTCUSDT', kind: 'markPrice' }]);
    await stepping(r.upcoming((e) => e.type === 'markPrice'));
    const reopened = r.nextState((s, gap) => s === 'open' && gap);
    const dropped = await fetch(`${url}/_sim/ws/drop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    expect(await dropped.json()).toEqual({ dropped: 1 });
    await reopened;
    expect(r.states.map((s) => s.state)).toContain('reconnecting');
    await stepping(r.upcoming((e) => e.type === 'markPrice'));
  });

  it('retries a refused connection with backoff, and recovers once what it asks for is served', async () => {
    const errors: string[] = [];
    const r = recorder<MarketEvent>();
    const stream = adapterFor().streams?.marketStream({
      ...r.handlers,
      onError: (e) => errors.push(e.message),
    }) as MarketStream;
    toClose.push(stream);
    // The simulator lists no XRPUSDT and refuses the handshake (HTTP 400), like an unknown stream
    stream.add([{ symbol: 'XRPUSDT', kind: 'markPrice' }]);
    await r.nextState((s) => s === 'reconnecting');
    await r.nextState((s) => s === 'reconnecting');
    expect(errors).toContain('stream refused with HTTP 400');
    stream.remove([{ symbol: 'XRPUSDT', kind: 'markPrice' }]);
    stream.add([{ symbol: 'SOLUSDT', kind: 'markPrice' }]);
    await stepping(r.upcoming((e) => e.type === 'markPrice' && e.symbol === 'SOLUSDT'));
  });

  it('waits out its reconnect backoff on its own clock: 500 ms, doubling up to the cap', async () => {
    // The streams' timers on a manual clock: each retry is a step of the test, no real wait
    const streamClock = new TimerClock(T0);
    const errors: string[] = [];
    const r = recorder<MarketEvent>();
    const adapter = new BinanceUsdmAdapter({
      restUrl: url,
      wsUrl,
      clock: streamClock,
      streams: { reconnectInitialMs: 500, reconnectMaxMs: 2_000 },
    });
    const stream = adapter.streams?.marketStream({
      ...r.handlers,
      onError: (e) => errors.push(e.message),
    }) as MarketStream;
    toClose.push(stream);
    const refusals = () => r.states.filter((s) => s.state === 'reconnecting').length;
    // Refused at its handshake (the simulator lists no XRPUSDT), every time
    stream.add([{ symbol: 'XRPUSDT', kind: 'markPrice' }]);
    await vi.waitFor(() => expect(refusals()).toBe(1));
    for (const [i, delay] of [500, 1_000, 2_000, 2_000].entries()) {
      await streamClock.advance(delay - 1);
      expect(refusals()).toBe(i + 1);
      await streamClock.advance(1);
      await vi.waitFor(() => expect(refusals()).toBe(i + 2));
    }
    expect(errors).toContain('stream refused with HTTP 400');
  });

  it('reconnects when the exchange cuts a connection at its lifetime (Binance: 24 h)', async () => {
    const r = recorder<MarketEvent>();
    const stream = adapterFor().streams?.marketStream(r.handlers) as MarketStream;
    toClose.push(stream);
    stream.add([{ symbol: 'SOLUSDT', kind: 'markPrice' }]);
    await stepping(r.upcoming((e) => e.type === 'markPrice'));
    const reopened = r.nextState((s, gap) => s === 'open' && gap);
    await stepping(reopened, 60_000);
    await stepping(r.upcoming((e) => e.type === 'markPrice'));
  });
});

describe('user-data stream', () => {
  const isOrder = (x: string) => (e: UserDataEvent) => e.type === 'order' && e.executionType === x;

  it('turns order and account events into our terms after placing and canceling orders', async () => {
    const adapter = adapterFor();
    const keys = await account();
    const r = recorder<UserDataEvent>();
    const stream = adapter.streams?.userDataStream(keys, r.handlers) as UserDataStream;
    toClose.push(stream);
    await r.state((s) => s === 'open');
    expect(stream.listenKey).toMatch(/^[A-Za-z0-9]{64}$/);

    const resting = await adapter.placeOrder(keys, {
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '1',
      price: '50.00',
      clientOrderId: 'stream-limit',
    });
    const created = (await r.next(isOrder('NEW'))) as OrderUpdateEvent;
    expect(created).toMatchObject({
      symbol: 'SOLUSDT',
      orderId: resting.orderId,
      clientOrderId: 'stream-limit',
      side: 'BUY',
      orderType: 'LIMIT',
      status: 'NEW',
      positionSide: 'BOTH',
    });
    // Ids above 2^53 survive the stream's JSON too
    expect(BigInt(created.orderId) > 2n ** 53n).toBe(true);
    await adapter.cancelOrder(keys, 'SOLUSDT', { clientOrderId: 'stream-limit' });
    expect(await r.next(isOrder('CANCELED'))).toMatchObject({ orderId: resting.orderId, status: 'CANCELED' });

    await adapter.placeOrder(keys, { symbol: 'SOLUSDT', side: 'BUY', type: 'MARKET', quantity: '1' });
    const fill = (await r.next(isOrder('TRADE'))) as OrderUpdateEvent;
    expect(fill).toMatchObject({ status: 'FILLED', executedQuantity: '1', lastFilledQuantity: '1' });
    expect(Number(fill.commission)).toBeGreaterThan(0);
    const update = await r.next((e) => e.type === 'account');
    expect(update).toMatchObject({
      type: 'account',
      reason: 'ORDER',
      balances: [expect.objectContaining({ asset: 'USDT' })],
      positions: [expect.objectContaining({ symbol: 'SOLUSDT', amount: '1', positionSide: 'BOTH' })],
    });
  });

  it('turns conditional (algo) order updates into our terms', async () => {
    const adapter = adapterFor();
    const keys = await account();
    const r = recorder<UserDataEvent>();
    toClose.push(adapter.streams?.userDataStream(keys, r.handlers) as UserDataStream);
    await r.state((s) => s === 'open');
    // Placed the way Binance wants conditional orders since 2025-12: POST /fapi/v1/algoOrder
    await adapter.client.signed('POST', '/fapi/v1/algoOrder', keys, IgnoredAnswer, {
      algoType: 'CONDITIONAL',
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'STOP_MARKET',
      quantity: '1',
      triggerPrice: '900.00',
      clientAlgoId: 'stop-1',
    });
    const placed = await r.next((e) => e.type === 'algoOrder' && e.status === 'NEW');
    expect(placed).toMatchObject({
      symbol: 'SOLUSDT',
      clientAlgoId: 'stop-1',
      orderType: 'STOP_MARKET',
      side: 'BUY',
      triggerPrice: '900',
      quantity: '1',
      reduceOnly: false,
      closePosition: false,
    });
    expect(placed.type === 'algoOrder' && placed.algoId).toMatch(/^\d+$/);
    await adapter.client.signed('DELETE', '/fapi/v1/algoOrder', keys, IgnoredAnswer, {
      clientAlgoId: 'stop-1',
    });
    await r.next((e) => e.type === 'algoOrder' && e.status === 'CANCELED');
  });

  it('keeps the listenKey alive past 60 minutes with its keepalive', async () => {
    // The keepalive runs on the wall clock every 20 ms; the simulator's key would die 60 simulated min after the last
    const adapter = adapterFor({ keepAliveMs: 20 });
    const keys = await account();
    const r = recorder<UserDataEvent>();
    const stream = adapter.streams?.userDataStream(keys, r.handlers) as UserDataStream;
    toClose.push(stream);
    await r.state((s) => s === 'open');
    const key = stream.listenKey;
    for (let i = 0; i < 8; i++) {
      step(15 * 60_000);
      // Give the keepalive a few turns at the new simulated time
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    // Two simulated hours on, the first key is still live (the simulator's 10 min connection cut made the stream
    // reconnect, and POST listenKey hands back the live key rather than a new one) and carries events
    await adapter.placeOrder(keys, { symbol: 'SOLUSDT', side: 'BUY', type: 'MARKET', quantity: '1' });
    await r.next(isOrder('TRADE'));
    expect(stream.listenKey).toBe(key);
    const res = await fetch(`${url}/fapi/v1/listenKey`, {
      method: 'PUT',
      headers: { 'X-MBX-APIKEY': keys.apiKey },
    });
    expect(await res.json()).toEqual({ listenKey: key });
  });

  it('without keepalive the key expires: listenKeyExpired brings a new key and events keep coming', async () => {
    const adapter = adapterFor({ keepAliveMs: 3_600_000 });
    const keys = await account();
    const r = recorder<UserDataEvent>();
    const stream = adapter.streams?.userDataStream(keys, r.handlers) as UserDataStream;
    toClose.push(stream);
    await r.state((s) => s === 'open');
    const first = stream.listenKey;
    const reopened = r.nextState((s, gap) => s === 'open' && gap);
    step(61 * 60_000);
    await reopened;
    expect(stream.listenKey).not.toBe(first);
    await adapter.placeOrder(keys, { symbol: 'SOLUSDT', side: 'BUY', type: 'MARKET', quantity: '1' });
    await r.next(isOrder('TRADE'));
  });

  it('reconnects after dropped sockets and closes its listenKey at the end', async () => {
    const adapter = adapterFor();
    const keys = await account();
    const r = recorder<UserDataEvent>();
    const stream = adapter.streams?.userDataStream(keys, r.handlers) as UserDataStream;
    await r.state((s) => s === 'open');
    const reopened = r.nextState((s, gap) => s === 'open' && gap);
    await fetch(`${url}/_sim/ws/drop`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    await reopened;
    await adapter.placeOrder(keys, { symbol: 'SOLUSDT', side: 'BUY', type: 'MARKET', quantity: '1' });
    await r.next(isOrder('TRADE'));

    await stream.close();
    expect(r.states.at(-1)?.state).toBe('closed');
    // The key is gone on the exchange: a keepalive for it is refused with -1125
    const res = await fetch(`${url}/fapi/v1/listenKey`, {
      method: 'PUT',
      headers: { 'X-MBX-APIKEY': keys.apiKey },
    });
    expect(((await res.json()) as { code: number }).code).toBe(-1125);
  });
});

/** The simulator's streams behind a pass-through that edits the frames `edit` picks out */
async function corruptingStreams(edit: (frame: string) => string): Promise<{ wsUrl: string; close(): void }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (client, req) => {
    const upstream = new WebSocket(`${wsUrl}${req.url ?? ''}`);
    upstream.on('message', (data) => client.send(edit(data.toString())));
    upstream.on('close', () => client.close());
    client.on('close', () => upstream.close());
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    wsUrl: `ws://127.0.0.1:${port}`,
    close: () => {
      for (const c of server.clients) c.terminate();
      server.close();
    },
  };
}

describe('stream events the adapter cannot read', () => {
  it('a broken order event is reported, the stream says events may be missing, and goes on', async () => {
    let broken = 0;
    const proxy = await corruptingStreams((frame) => {
      if (broken > 0 || !frame.includes('"x":"NEW"')) return frame;
      broken += 1;
      return frame.replace('"X":"NEW"', '"X":"WAITING"');
    });
    try {
      const adapter = new BinanceUsdmAdapter({ restUrl: url, wsUrl: proxy.wsUrl, streams: fast });
      const keys = await account();
      const r = recorder<UserDataEvent>();
      const errors: Error[] = [];
      const stream = adapter.streams?.userDataStream(keys, {
        ...r.handlers,
        onError: (err) => errors.push(err),
      }) as UserDataStream;
      toClose.push(stream);
      await r.state((s) => s === 'open');
      const gap = r.nextState((s, gap) => s === 'open' && gap);
      await adapter.placeOrder(keys, {
        symbol: 'SOLUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '1',
        price: '50.00',
        clientOrderId: 'unreadable',
      });
      await gap;
      expect(errors.map((e) => e.message)).toEqual([
        expect.stringMatching(/^ORDER_TRADE_UPDATE event: o\.X: expected NEW, PARTIALLY_FILLED, /),
      ]);
      await adapter.cancelOrder(keys, 'SOLUSDT', { clientOrderId: 'unreadable' });
      expect(await r.next((e) => e.type === 'order')).toMatchObject({
        clientOrderId: 'unreadable',
        status: 'CANCELED',
      });
    } finally {
      proxy.close();
    }
  });
});
