import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/clock';
import type { AggTradeEvent, DepthEvent } from '../exchange/exchange-streams';
import type { OrderBookSnapshot } from '../exchange/exchange-types';
import type { LiveEvent, PushTarget } from '../socket/socket-bus';
import { BOOK_PUSH_MIN_MS, BOOK_SNAPSHOT_LEVELS, BookFeeds } from './book-feeds';

const depth = (
  first: number,
  final: number,
  previous: number,
  bids: [string, string][] = [],
): DepthEvent => ({
  type: 'depth',
  symbol: 'SOLUSDT',
  firstUpdateId: first,
  finalUpdateId: final,
  previousFinalUpdateId: previous,
  bids,
  asks: [],
  time: final,
});
const book = (lastUpdateId: number, bid = '100.00'): OrderBookSnapshot => ({
  lastUpdateId,
  time: lastUpdateId,
  bids: [[bid, '1.5']],
  asks: [['100.01', '2']],
});
const trade = (id: number, buyerMaker: boolean): AggTradeEvent => ({
  type: 'aggTrade',
  symbol: 'SOLUSDT',
  id,
  price: '100.00',
  quantity: '0.5',
  buyerMaker,
  time: id,
});

/** The books of testnet's SOLUSDT on a manual clock, with the REST books it asks for taken in order */
function setup() {
  const clock = new ManualClock();
  const published: Array<{ target: PushTarget; event: LiveEvent; id: string }> = [];
  const snapshots: OrderBookSnapshot[] = [];
  const asked: string[] = [];
  const feeds = new BookFeeds({
    snapshot: async (environment, symbol, limit) => {
      asked.push(`${environment}/${symbol}/${limit}`);
      const next = snapshots.shift();
      if (!next) throw new Error('no snapshot recorded');
      return next;
    },
    publish: (target, event, id) => published.push({ target, event, id }),
    target: (_environment, symbol) => ({ symbol, book: true }),
    eventId: (_environment, id) => id,
    clock,
    log: { warn() {} },
  });
  feeds.start('testnet', 'SOLUSDT');
  const books = () =>
    published.flatMap((p) =>
      p.event.kind === 'book' ? [{ id: p.id, target: p.target, ...p.event.data }] : [],
    );
  return { clock, feeds, snapshots, asked, published, books };
}

describe('order books and trades kept for the sockets', () => {
  it('syncs from a snapshot and the diffs, pushes at most every 100 ms, and resyncs after a gap or a reconnect', async () => {
    const { clock, feeds, snapshots, asked, books } = setup();
    // The stream flows before the snapshot: buffered, then one snapshot lines it up
    snapshots.push(book(10));
    feeds.onDepth('testnet', depth(9, 11, 8, [['99.99', '3']]));
    await clock.advance(0);
    expect(asked).toEqual([`testnet/SOLUSDT/${BOOK_SNAPSHOT_LEVELS}`]);
    expect(books()).toEqual([
      expect.objectContaining({
        symbol: 'SOLUSDT',
        lastUpdateId: 11,
        bids: [
          ['100.00', '1.5'],
          ['99.99', '3'],
        ],
        target: { symbol: 'SOLUSDT', book: true },
        id: 'book:SOLUSDT:11',
      }),
    ]);
    expect(feeds.book('testnet', 'SOLUSDT', 5)?.lastUpdateId).toBe(11);

    // Two diffs within 100 ms: one push, with the latest book
    feeds.onDepth('testnet', depth(12, 12, 11, [['100.00', '0']]));
    feeds.onDepth('testnet', depth(13, 14, 12, [['99.98', '4']]));
    expect(books()).toHaveLength(1);
    await clock.advance(BOOK_PUSH_MIN_MS);
    expect(books().at(-1)).toMatchObject({
      lastUpdateId: 14,
      bids: [
        ['99.99', '3'],
        ['99.98', '4'],
      ],
    });

    // A diff that does not follow 14: no push from the broken book, a new snapshot instead
    snapshots.push(book(20, '101.00'));
    feeds.onDepth('testnet', depth(18, 20, 17));
    await clock.advance(BOOK_PUSH_MIN_MS);
    expect(asked).toHaveLength(2);
    expect(books().at(-1)).toMatchObject({ lastUpdateId: 20, bids: [['101.00', '1.5']] });

    // The connection came back after a break: the next diff starts another sync
    feeds.reset('testnet');
    snapshots.push(book(30));
    feeds.onDepth('testnet', depth(30, 31, 29));
    await clock.advance(BOOK_PUSH_MIN_MS);
    expect(asked).toHaveLength(3);
    expect(books().at(-1)).toMatchObject({ lastUpdateId: 31 });
    expect(feeds.snapshotsOf('testnet', 'SOLUSDT')).toBe(3);
  });

  it('asks again for a snapshot that failed or was too old, after a wait that grows', async () => {
    const { clock, feeds, snapshots, asked, books } = setup();
    // No snapshot recorded: the first call fails
    feeds.onDepth('testnet', depth(50, 52, 49));
    await clock.advance(0);
    expect(asked).toHaveLength(1);
    // Older than the buffered events: does not fit either
    snapshots.push(book(40));
    await clock.advance(500);
    expect(asked).toHaveLength(2);
    expect(books()).toEqual([]);
    snapshots.push(book(51));
    await clock.advance(999);
    expect(asked).toHaveLength(2);
    await clock.advance(1);
    expect(asked).toHaveLength(3);
    expect(books()).toEqual([expect.objectContaining({ lastUpdateId: 52 })]);
  });

  it('batches trades into one push per 100 ms, keeps the last ones for a page opening the tape, and forgets them when stopped', async () => {
    const { clock, feeds, published } = setup();
    feeds.onTrade('testnet', trade(1, false));
    feeds.onTrade('testnet', trade(2, true));
    feeds.onTrade('testnet', trade(3, false));
    await clock.advance(BOOK_PUSH_MIN_MS);
    const tapes = published.flatMap((p) =>
      p.event.kind === 'trades' ? [p.event.data.trades.map((t) => t.id)] : [],
    );
    expect(tapes).toEqual([[1], [2, 3]]);
    expect(feeds.recentTrades('testnet', 'SOLUSDT')?.map((t) => t.buyerMaker)).toEqual([false, true, false]);
    feeds.stop('testnet', 'SOLUSDT');
    expect(feeds.recentTrades('testnet', 'SOLUSDT')).toBeUndefined();
  });
});
