import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../common/format';
import type { Market } from '../matching/market';
import { bookUpdateId } from '../matching/tape';
import { DEPTH_STREAM_LEVELS } from '../ws/depth-stream';
import { arr, Client, flatReplay, type Harness, obj, startSim } from './harness';
import { fixture, shapeDiff } from './shape';
import { type Msg, type RecordingSocket, Sockets } from './sockets';

let h: Harness;
const sockets = new Sockets();
afterEach(async () => {
  sockets.terminateAll();
  await h.close();
});

type Row = [string, string];

interface DepthEvent {
  U: number;
  u: number;
  pu: number;
  b: Row[];
  a: Row[];
}

interface Snapshot {
  lastUpdateId: number;
  bids: Row[];
  asks: Row[];
}

function rows(v: unknown): Row[] {
  return arr(v).map((r) => {
    const [p, q] = arr(r);
    if (typeof p !== 'string' || typeof q !== 'string') throw new Error(`Not a level: ${JSON.stringify(r)}`);
    return [p, q];
  });
}

function depthEvent(m: Msg): DepthEvent {
  const d = 'stream' in m ? obj(m.data) : m;
  return { U: Number(d.U), u: Number(d.u), pu: Number(d.pu), b: rows(d.b), a: rows(d.a) };
}

/**
 * A client keeping a local book by Binance's documented procedure for USDⓈ-M futures: buffer the stream, take a
 * REST snapshot, drop events with u < lastUpdateId, apply the first with U <= lastUpdateId + 1 and u >=
 * lastUpdateId, then every event must continue the previous one (pu = previous u). Quantities are absolute, 0
 * removes the level. Written here on purpose, not taken from the simulator, so it cannot share its mistakes
 */
class LocalBook {
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();
  #buffer: DepthEvent[] = [];
  #snapshotId?: number;
  lastUpdateId?: number;

  onEvent(e: DepthEvent): void {
    if (this.#snapshotId === undefined) {
      this.#buffer.push(e);
      return;
    }
    if (this.lastUpdateId === undefined) {
      // Not joined yet: waiting for the event that spans the snapshot
      if (e.u < this.#snapshotId) return;
      expect(e.U, 'first event starts at or before the snapshot').toBeLessThanOrEqual(this.#snapshotId + 1);
      expect(e.u).toBeGreaterThanOrEqual(this.#snapshotId);
    } else {
      expect(e.pu, 'pu continues the previous event').toBe(this.lastUpdateId);
    }
    for (const [p, q] of e.b) set(this.bids, p, q);
    for (const [p, q] of e.a) set(this.asks, p, q);
    this.lastUpdateId = e.u;
  }

  onSnapshot(s: Snapshot): void {
    for (const [p, q] of s.bids) this.bids.set(p, q);
    for (const [p, q] of s.asks) this.asks.set(p, q);
    this.#snapshotId = s.lastUpdateId;
    const buffered = this.#buffer;
    this.#buffer = [];
    for (const e of buffered) this.onEvent(e);
  }

  /** Where the book stands: the last applied event's u, or the snapshot's id before any */
  get id(): number | undefined {
    return this.lastUpdateId ?? this.#snapshotId;
  }

  top(n: number): { bids: Row[]; asks: Row[] } {
    const side = (m: Map<string, string>, dir: number) =>
      [...m.entries()].sort((x, y) => dir * (Number(x[0]) - Number(y[0]))).slice(0, n);
    return { bids: side(this.bids, -1), asks: side(this.asks, 1) };
  }
}

function set(side: Map<string, string>, price: string, qty: string): void {
  if (Number(qty) === 0) side.delete(price);
  else side.set(price, qty);
}

async function restDepth(limit: number, symbol = 'BTCUSDT'): Promise<Snapshot> {
  const client = new Client(h.url, { apiKey: 'x'.repeat(64), secretKey: 'y'.repeat(64) }, h.clock);
  const d = obj((await client.get('/fapi/v1/depth', { symbol, limit })).json);
  return { lastUpdateId: Number(d.lastUpdateId), bids: rows(d.bids), asks: rows(d.asks) };
}

/** Feeds a socket's depth events to a local book, in order, once the event of the current second has come */
function follow(s: RecordingSocket, market: Market, book: LocalBook) {
  let cursor = 0;
  return async () => {
    const id = bookUpdateId(market, h.clock.now());
    await s.next((m) => m.e === 'depthUpdate' && m.u === id);
    for (; cursor < s.seen.length; cursor++) book.onEvent(depthEvent(s.seen[cursor] as Msg));
  };
}

function step(ms = 1000) {
  h.until(h.clock.now() + ms);
}

/** Jumps the price `ticks` ticks from the best bid now */
function move(market: Market, ticks: number) {
  const price = new Decimal(market.book(h.clock.now()).bid).plus(
    new Decimal(market.spec.tickSize).mul(ticks),
  );
  h.sim.exchange.setPrice(market.spec.symbol, { price: price.toFixed(market.spec.pricePrecision) });
}

describe('diff depth stream', () => {
  it('chains its events: U = previous u + 1, pu = previous u, from the book of the subscription', async () => {
    h = await startSim();
    const market = h.sim.exchange.market('BTCUSDT');
    const s = sockets.connect(`${h.wsUrl}/public/ws/btcusdt@depth`);
    await s.opened;
    const subscribedAt = bookUpdateId(market, h.clock.now());
    for (let i = 0; i < 5; i++) {
      step();
      await s.next((m) => m.u === bookUpdateId(market, h.clock.now()));
    }
    const events = s.seen.map(depthEvent);
    expect(events).toHaveLength(5);
    expect(events[0]).toMatchObject({ pu: subscribedAt, U: subscribedAt + 1 });
    for (const [i, e] of events.entries()) {
      if (i > 0) expect(e).toMatchObject({ pu: events[i - 1]?.u, U: (events[i - 1]?.u ?? 0) + 1 });
      expect(e.u).toBeGreaterThanOrEqual(e.U);
    }
    const first = s.seen[0] as Msg;
    expect(shapeDiff(fixture('ws_depth_update.json'), first, true)).toEqual([]);
    expect(first).toMatchObject({
      e: 'depthUpdate',
      s: 'BTCUSDT',
      E: h.clock.now() - 4000,
      T: h.clock.now() - 4000,
    });
    // BTCUSDT: 2 price decimals, 3 quantity decimals (a removed level too: "0.000", as Binance writes it); bids
    // best first, asks best first
    const b = rows(first.b);
    expect(b.every(([p, q]) => /^\d+\.\d{2}$/.test(p) && /^\d+\.\d{3}$/.test(q))).toBe(true);
    expect(b.map(([p]) => Number(p))).toEqual([...b.map(([p]) => Number(p))].sort((x, y) => y - x));
    const a = rows(first.a).map(([p]) => Number(p));
    expect(a).toEqual([...a].sort((x, y) => x - y));
  });

  it("lets a client following Binance's procedure reproduce REST depth exactly, across price moves", async () => {
    h = await startSim();
    const market = h.sim.exchange.market('BTCUSDT');
    const s = sockets.connect(`${h.wsUrl}/public/ws/btcusdt@depth@100ms`);
    await s.opened;
    const book = new LocalBook();
    const pump = follow(s, market, book);
    // Two events buffered before the snapshot: the older is dropped, the newer spans it
    step();
    await pump();
    step();
    await pump();
    book.onSnapshot(await restDepth(1000));
    const check = async (what: string) => {
      await pump();
      const rest = await restDepth(20);
      expect(book.id, what).toBe(rest.lastUpdateId);
      expect(book.top(20), what).toEqual({ bids: rest.bids, asks: rest.asks });
    };
    step();
    await check('the walk');
    move(market, 37);
    step();
    await check('up 37 ticks');
    // Further than the stream's window: the levels the snapshot held below it must not cross the book
    move(market, -250);
    step();
    await check('down 250 ticks');
    step(3000);
    await check('three seconds at once');
    move(market, 1500);
    step();
    await check('up 1500 ticks, beyond the snapshot');
    const target = new Decimal(market.book(h.clock.now()).bid).minus(40).toFixed(2);
    h.sim.exchange.setPrice('BTCUSDT', { target, overMs: 4000 });
    for (let i = 0; i < 4; i++) {
      step();
      await check(`path, second ${i + 1}`);
    }
    expect(market.book(h.clock.now()).bid).toBe(Number(target));
  });

  it('joins a snapshot taken after a price command moved the book within the same second', async () => {
    h = await startSim();
    const market = h.sim.exchange.market('BTCUSDT');
    const s = sockets.connect(`${h.wsUrl}/public/ws/btcusdt@depth`);
    await s.opened;
    const book = new LocalBook();
    const pump = follow(s, market, book);
    step();
    await pump();
    const before = bookUpdateId(market, h.clock.now());
    // The stream has sent this second's book; the command changes it, and so its id
    move(market, 20);
    const snapshot = await restDepth(1000);
    expect(snapshot.lastUpdateId).toBe(before + 1);
    book.onSnapshot(snapshot);
    step();
    await pump();
    // The change of the re-priced second first, ending at the snapshot's id, then the next second
    const [revision, next] = s.seen.slice(-2).map(depthEvent);
    expect(revision).toMatchObject({ pu: before, U: before + 1, u: before + 1 });
    expect(next).toMatchObject({ pu: before + 1, U: before + 2, u: bookUpdateId(market, h.clock.now()) });
    const rest = await restDepth(20);
    expect(book.top(20)).toEqual({ bids: rest.bids, asks: rest.asks });
  });

  it('sends a zero qty for levels leaving the window, and for levels that changed side', async () => {
    h = await startSim();
    const market = h.sim.exchange.market('BTCUSDT');
    const s = sockets.connect(`${h.wsUrl}/public/ws/btcusdt@depth`);
    await s.opened;
    step();
    await s.next((m) => m.u === bookUpdateId(market, h.clock.now()));
    const window = await restDepth(DEPTH_STREAM_LEVELS);
    const sent = s.seen.length;
    move(market, 10);
    step();
    await s.next((m) => m.u === bookUpdateId(market, h.clock.now()));
    const events = s.seen.slice(sent).map(depthEvent);
    const bids = new Map(events.flatMap((e) => e.b));
    const asks = new Map(events.flatMap((e) => e.a));
    // Ten ticks up: the ten deepest bids of the window leave it, the ten best asks are now bids
    for (const [price] of window.bids.slice(-10)) expect(bids.get(price), price).toBe('0.000');
    expect(bids.get((window.bids.at(-11) as Row)[0])).not.toBe('0.000');
    for (const [price] of window.asks.slice(0, 10)) {
      expect(asks.get(price), price).toBe('0.000');
      expect(Number(bids.get(price))).toBeGreaterThan(0);
    }
  });

  it('sends nothing while the book stands still', async () => {
    // A flat price and the smallest sizes: every level holds the minimum quantity, second after second
    h = await startSim({
      feeds: [flatReplay('BTCUSDT', [{ fromMinute: -120, price: 65000 }])],
      bookDepth: 1e-9,
    });
    const market = h.sim.exchange.market('BTCUSDT');
    // bookTicker after depth on one socket: its message of a second says depth had nothing before it
    const s = sockets.connect(`${h.wsUrl}/public/stream?streams=btcusdt@depth/btcusdt@bookTicker`);
    await s.opened;
    const start = bookUpdateId(market, h.clock.now());
    for (let i = 0; i < 3; i++) {
      step();
      await s.next((m) => m.stream === 'btcusdt@bookTicker' && obj(m.data).E === h.clock.now());
    }
    expect(s.seen.filter((m) => m.stream === 'btcusdt@depth')).toEqual([]);
    h.sim.exchange.setPrice('BTCUSDT', { price: '65000.10' });
    step();
    const e = depthEvent(await s.next((m) => m.stream === 'btcusdt@depth'));
    // The first event spans the silent seconds up to the re-priced one; the second after it changed nothing
    expect(e).toMatchObject({ pu: start, U: start + 1, u: bookUpdateId(market, h.clock.now() - 1000) });
    expect(e.a).toContainEqual(['65000.10', '0.000']);
    expect(e.b).toContainEqual(['65000.10', '0.001']);
  });
});

describe('partial depth streams', () => {
  it('push the top 5, 10 and 20 levels each second, as REST depth shows them', async () => {
    h = await startSim();
    const market = h.sim.exchange.market('ETHUSDT');
    const names = ['ethusdt@depth5', 'ethusdt@depth10@100ms', 'ethusdt@depth20@500ms'];
    const s = sockets.connect(`${h.wsUrl}/public/stream?streams=${names.join('/')}`);
    await s.opened;
    for (let i = 0; i < 2; i++) {
      step();
      const now = h.clock.now();
      for (const [n, name] of [5, 10, 20].map((n, j) => [n, names[j]] as const)) {
        const m = await s.next((x) => x.stream === name && obj(x.data).E === now);
        const d = obj(m.data);
        expect(shapeDiff(fixture('ws_depth_update.json'), d, true)).toEqual([]);
        const rest = await restDepth(n, 'ETHUSDT');
        expect(d).toMatchObject({
          e: 'depthUpdate',
          s: 'ETHUSDT',
          u: rest.lastUpdateId,
          b: rest.bids,
          a: rest.asks,
        });
        const previous = bookUpdateId(market, now - 1000);
        expect(d).toMatchObject({ U: previous + 1, pu: previous });
      }
    }
  });
});

describe('depth stream names', () => {
  it('serves depth only on /public and refuses names Binance does not have', async () => {
    h = await startSim();
    for (const name of ['btcusdt@depth', 'btcusdt@depth@250ms', 'btcusdt@depth20@100ms']) {
      await expect(sockets.connect(`${h.wsUrl}/public/ws/${name}`).opened, name).resolves.toBeUndefined();
    }
    for (const name of [
      'btcusdt@depth7',
      'btcusdt@depth@200ms',
      'btcusdt@depth5@1000ms',
      'btcusdt@depth@100ms@100ms',
      'BTCUSDT@depth',
      'nopeusdt@depth',
    ]) {
      await expect(sockets.connect(`${h.wsUrl}/public/ws/${name}`).opened, name).rejects.toThrow('HTTP 400');
    }
    await expect(sockets.connect(`${h.wsUrl}/market/ws/btcusdt@depth`).opened).rejects.toThrow('HTTP 400');
    const s = sockets.connect(`${h.wsUrl}/public/ws`);
    await s.opened;
    s.ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['btcusdt@depth15'], id: 1 }));
    expect(obj((await s.next((x) => x.id === 1)).error).code).toBe(2);
    s.ws.send(JSON.stringify({ method: 'SUBSCRIBE', params: ['btcusdt@depth@500ms'], id: 2 }));
    expect(await s.next((x) => x.id === 2)).toEqual({ result: null, id: 2 });
    s.ws.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: 3 }));
    expect(await s.next((x) => x.id === 3)).toEqual({ result: ['btcusdt@depth@500ms'], id: 3 });
    step();
    expect((await s.next((x) => x.e === 'depthUpdate')).s).toBe('BTCUSDT');
  });
});
