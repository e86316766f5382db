import { describe, expect, it } from 'vitest';
import type { DepthEvent } from '../exchange/exchange-streams';
import { OrderBookSync } from './order-book';

/** A diff event covering update ids first..final, following `previous` */
function diff(
  first: number,
  final: number,
  previous: number,
  change: { bids?: [string, string][]; asks?: [string, string][] } = {},
): DepthEvent {
  return {
    type: 'depth',
    symbol: 'BTCUSDT',
    firstUpdateId: first,
    finalUpdateId: final,
    previousFinalUpdateId: previous,
    bids: change.bids ?? [],
    asks: change.asks ?? [],
    time: final,
  };
}

const snapshot = (lastUpdateId: number) => ({
  lastUpdateId,
  time: lastUpdateId,
  bids: [
    ['100.0', '1'],
    ['99.9', '2'],
    ['99.8', '3'],
  ] as [string, string][],
  asks: [
    ['100.1', '1'],
    ['100.2', '2'],
  ] as [string, string][],
});

describe("the order book kept by Binance's snapshot + diff procedure", () => {
  it('buffers the stream, drops what the snapshot holds, and replays the rest on it', () => {
    const book = new OrderBookSync();
    expect(book.onDiff(diff(95, 100, 94, { bids: [['99.9', '5']] }))).toBe('buffered');
    expect(book.onDiff(diff(101, 108, 100, { bids: [['100.0', '0']], asks: [['100.15', '4']] }))).toBe(
      'buffered',
    );
    expect(book.onDiff(diff(109, 110, 108, { bids: [['99.7', '7']] }))).toBe('buffered');
    expect(book.synced).toBe(false);

    // The snapshot is at 105: the first event ends before it (dropped), the second straddles it (U ≤ 105 ≤ u)
    expect(book.onSnapshot(snapshot(105))).toBe(true);
    expect(book.synced).toBe(true);
    expect(book.lastUpdateId).toBe(110);
    expect(book.top(10)).toEqual({
      bids: [
        ['99.9', '2'],
        ['99.8', '3'],
        ['99.7', '7'],
      ],
      asks: [
        ['100.1', '1'],
        ['100.15', '4'],
        ['100.2', '2'],
      ],
    });

    // Live: each event continues the chain
    expect(book.onDiff(diff(111, 112, 110, { asks: [['100.1', '0.5']] }))).toBe('applied');
    expect(book.top(1).asks).toEqual([['100.1', '0.5']]);
  });

  it('asks for another snapshot when the snapshot is older than every buffered event', () => {
    const book = new OrderBookSync();
    book.onDiff(diff(120, 125, 119));
    // 101..119 were never seen: the snapshot at 100 cannot be brought forward
    expect(book.onSnapshot(snapshot(100))).toBe(false);
    expect(book.synced).toBe(false);
    // A newer snapshot fits the event kept from before
    expect(book.onSnapshot(snapshot(122))).toBe(true);
    expect(book.lastUpdateId).toBe(125);
  });

  it('a missed event (pu not the last u) unsyncs the book until a new snapshot', () => {
    const book = new OrderBookSync();
    book.onSnapshot(snapshot(100));
    expect(book.onDiff(diff(101, 103, 100, { bids: [['100.0', '9']] }))).toBe('applied');
    // 104..106 lost on the way: this one says it follows 106
    expect(book.onDiff(diff(107, 109, 106, { bids: [['100.0', '1']] }))).toBe('gap');
    expect(book.synced).toBe(false);
    expect(book.onDiff(diff(110, 111, 109))).toBe('buffered');
    // The new snapshot holds everything up to 108; the kept events bring it to 111
    expect(book.onSnapshot(snapshot(108))).toBe(true);
    expect(book.lastUpdateId).toBe(111);
  });

  it('an event delivered out of order: an older one is stale, a newer one breaks the chain', () => {
    const book = new OrderBookSync();
    book.onSnapshot(snapshot(100));
    const first = diff(101, 102, 100, { asks: [['100.1', '3']] });
    const second = diff(103, 104, 102, { asks: [['100.1', '6']] });
    // The second arrives first: it does not follow 100, so the book cannot trust itself
    expect(book.onDiff(second)).toBe('gap');
    expect(book.onDiff(first)).toBe('buffered');
    // After resyncing, the late first one is older than the book and changes nothing
    expect(book.onSnapshot({ ...snapshot(104), asks: [['100.1', '6']] })).toBe(true);
    expect(book.onDiff(first)).toBe('stale');
    expect(book.top(1).asks).toEqual([['100.1', '6']]);
  });

  it('a break inside the buffered events is caught while replaying them', () => {
    const book = new OrderBookSync();
    book.onDiff(diff(99, 101, 98));
    book.onDiff(diff(105, 106, 104));
    expect(book.onSnapshot(snapshot(100))).toBe(false);
    expect(book.synced).toBe(false);
  });

  it('a reconnect of the stream unsyncs the book', () => {
    const book = new OrderBookSync();
    book.onSnapshot(snapshot(100));
    book.reset();
    expect(book.synced).toBe(false);
    expect(book.onDiff(diff(101, 102, 100))).toBe('buffered');
  });
});
