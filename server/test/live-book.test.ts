import { describe, expect, it, vi } from 'vitest';
import { bearer, signUp } from './helper';
import { useLiveSockets } from './live-sockets';
import { pushOf, TestSocket, type WsFrame, wsUrl } from './socket-helper';

/** Upstream streams outlive their last socket this long here (30 s in production) */
const LINGER_MS = 400;

type Level = [string, string];
interface BookPush {
  symbol: string;
  lastUpdateId: number;
  bids: Level[];
  asks: Level[];
}

/**
 * The order book and trades tape end to end: the simulator's diff depth and aggTrade streams → the adapter → one
 * book per symbol synced from a REST snapshot and the diffs → the socket bus → the sockets that asked for it
 */
describe('live order book and trades', () => {
  const live = useLiveSockets({ historyDays: 1, deps: { liveStreamLingerMs: LINGER_MS } });
  const { t, sockets, step } = live;

  async function openSocket(): Promise<{ s: TestSocket; token: string; frames: WsFrame[] }> {
    const auth = await signUp(t);
    const s = await TestSocket.open(wsUrl(live.base, auth.access_token, `tab-${sockets.length}`));
    sockets.push(s);
    const frames: WsFrame[] = [];
    s.ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as WsFrame));
    await s.request('tools/list');
    return { s, token: auth.access_token, frames };
  }
  const book = (match?: (p: BookPush) => boolean) =>
    pushOf('notifications/book', (p) => (match ? match(p as unknown as BookPush) : true));

  /** The simulator's REST book now, cut to `levels` per side */
  async function simBook(levels: number): Promise<{ lastUpdateId: number; bids: Level[]; asks: Level[] }> {
    const res = await fetch(`${t.simUrl}/fapi/v1/depth?symbol=BTCUSDT&limit=100`);
    const body = (await res.json()) as { lastUpdateId: number; bids: Level[]; asks: Level[] };
    return {
      lastUpdateId: body.lastUpdateId,
      bids: body.bids.slice(0, levels),
      asks: body.asks.slice(0, levels),
    };
  }

  it("pushes the symbol's synced book, which equals the exchange's book of the same update, to the sockets that asked", async () => {
    const watcher = await openSocket();
    const bystander = await openSocket();
    const reply = await watcher.s.request('streams/subscribe', {
      streams: ['book', 'trades'],
      books: ['btcusdt'],
    });
    expect(reply.error).toBeUndefined();
    expect(JSON.parse(reply.result?.content?.[0]?.text ?? '{}')).toMatchObject({ books: ['BTCUSDT'] });

    const first = (await step(watcher.s.next(book()))).params as unknown as BookPush;
    expect(first.symbol).toBe('BTCUSDT');
    expect(first.bids.length).toBeGreaterThan(10);
    expect(Number(first.bids[0]?.[0])).toBeLessThan(Number(first.asks[0]?.[0]));
    // Several seconds later (the simulator's book moves each second), the pushed book is still the exchange's
    const later = (await step(watcher.s.next(book((p) => p.lastUpdateId >= first.lastUpdateId + 3))))
      .params as unknown as BookPush;
    expect(later.bids.length).toBe(50);
    // With the simulator's time stopped, the server's book (as its REST call answers) and the exchange's agree on
    // the update and on every level shown
    const serverBook = async () => {
      const res = await t.request({
        method: 'GET',
        url: '/api/v1/market/depth/BTCUSDT?limit=20',
        headers: bearer(watcher.token),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as BookPush;
    };
    const [ours, exchange] = await vi.waitFor(
      async () => {
        const pair = [await serverBook(), await simBook(20)] as const;
        expect(pair[0].lastUpdateId).toBe(pair[1].lastUpdateId);
        return pair;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(ours.bids).toEqual(exchange.bids);
    expect(ours.asks).toEqual(exchange.asks);
    expect(ours.lastUpdateId).toBeGreaterThanOrEqual(later.lastUpdateId);
    expect(t.app.liveStreams?.books.snapshotsOf('testnet', 'BTCUSDT')).toBe(1);

    // Trades come too, in batches; the bystander (no books asked) gets neither
    const trades = await step(watcher.s.next(pushOf('notifications/trades')));
    const tape = (trades.params?.trades ?? []) as Array<{
      price: string;
      quantity: string;
      buyerMaker: boolean;
    }>;
    expect(tape.length).toBeGreaterThan(0);
    expect(tape[0]).toMatchObject({
      price: expect.stringMatching(/^\d+\.\d+$/),
      buyerMaker: expect.any(Boolean),
    });
    const seen = (frames: WsFrame[], method: string) => frames.filter((f) => f.method === method).length;
    expect(seen(bystander.frames, 'notifications/book')).toBe(0);
    expect(seen(bystander.frames, 'notifications/trades')).toBe(0);
  });

  it('a dropped stream resyncs the book from a new snapshot, and the pushes go on', async () => {
    const watcher = await openSocket();
    await watcher.s.request('streams/subscribe', { streams: ['book'], books: ['BTCUSDT'] });
    const before = (await step(watcher.s.next(book()))).params as unknown as BookPush;
    const snapshots = t.app.liveStreams?.books.snapshotsOf('testnet', 'BTCUSDT') ?? 0;
    await fetch(`${t.simUrl}/_sim/ws/drop`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
    });
    const after = (await step(watcher.s.next(book((p) => p.lastUpdateId > before.lastUpdateId + 1))))
      .params as unknown as BookPush;
    expect(after.bids.length).toBeGreaterThan(10);
    expect(t.app.liveStreams?.books.snapshotsOf('testnet', 'BTCUSDT')).toBeGreaterThan(snapshots);
  });

  it('refuses a book of a symbol the exchange does not list, naming it', async () => {
    const { s } = await openSocket();
    const reply = await s.request('streams/subscribe', { streams: ['book'], books: ['NOPEUSDT'] });
    expect(reply.error).toMatchObject({
      code: -32602,
      message: 'Invalid params: books: the exchange does not list NOPEUSDT',
      data: { unlisted: ['NOPEUSDT'] },
    });
  });
});
