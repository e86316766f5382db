import type { DepthEvent } from '../exchange/exchange-streams';
import type { BookLevel, OrderBookSnapshot } from '../exchange/exchange-types';

/** What became of one diff event handed to the book */
export type DiffOutcome =
  /** Kept until a snapshot arrives (the book is not synced yet) */
  | 'buffered'
  /** Applied: the book changed */
  | 'applied'
  /** Older than the book (its updates are already in it): dropped */
  | 'stale'
  /** A break in the chain (a missed or out-of-order event): the book is no longer trustworthy, take a new snapshot */
  | 'gap';

/** Most diff events kept while waiting for a snapshot: beyond it the oldest go (the snapshot must be newer anyway) */
const MAX_BUFFERED = 1_000;

/**
 * One symbol's order book kept in sync with the exchange by Binance's documented procedure for USDⓈ-M futures:
 * buffer the diff stream, take a REST snapshot, drop events whose final id `u` is below the snapshot's
 * `lastUpdateId`, start from the first event with `U <= lastUpdateId <= u`, then require each event's `pu` to be
 * the previous event's `u`. Quantities are absolute; 0 removes the level. A break anywhere makes it unsynced: the
 * caller fetches a new snapshot (`needsSnapshot`) and the buffered events after it are replayed.
 */
export class OrderBookSync {
  readonly #bids = new Map<string, string>();
  readonly #asks = new Map<string, string>();
  #buffer: DepthEvent[] = [];
  #synced = false;
  #lastUpdateId = 0;
  #time = 0;

  /** The book follows the stream; false until a snapshot fits the buffered events, and after a gap */
  get synced(): boolean {
    return this.#synced;
  }

  /** The exchange's update id the book reflects (0 before the first snapshot) */
  get lastUpdateId(): number {
    return this.#lastUpdateId;
  }

  /** Exchange time of the last change applied */
  get time(): number {
    return this.#time;
  }

  /** A diff event from the stream, in the order the stream delivered it */
  onDiff(event: DepthEvent): DiffOutcome {
    if (!this.#synced) {
      this.#buffer.push(event);
      if (this.#buffer.length > MAX_BUFFERED) this.#buffer.shift();
      return 'buffered';
    }
    if (event.finalUpdateId <= this.#lastUpdateId) return 'stale';
    if (event.previousFinalUpdateId !== this.#lastUpdateId) {
      this.#unsync(event);
      return 'gap';
    }
    this.#apply(event);
    return 'applied';
  }

  /**
   * A REST snapshot, taken after the stream was opened: replaces the book and replays the buffered events that
   * follow it. `synced` says whether they fit; when the snapshot is older than every buffered event (or the chain
   * breaks in the buffer) another snapshot is needed
   */
  onSnapshot(snapshot: OrderBookSnapshot): boolean {
    this.#bids.clear();
    this.#asks.clear();
    for (const [price, qty] of snapshot.bids) this.#bids.set(price, qty);
    for (const [price, qty] of snapshot.asks) this.#asks.set(price, qty);
    this.#lastUpdateId = snapshot.lastUpdateId;
    this.#time = snapshot.time;
    const pending = this.#buffer.filter((e) => e.finalUpdateId >= snapshot.lastUpdateId);
    this.#buffer = [];
    const [first, ...rest] = pending;
    if (first === undefined) {
      // Nothing newer buffered yet: the snapshot is the book, and the next event must continue from it
      this.#synced = true;
      return true;
    }
    if (first.firstUpdateId > snapshot.lastUpdateId + 1) {
      // Events between the snapshot and the first buffered one were missed: the snapshot is too old
      this.#synced = false;
      this.#buffer = pending;
      return false;
    }
    this.#apply(first);
    this.#synced = true;
    for (const [i, e] of rest.entries()) {
      if (e.previousFinalUpdateId !== this.#lastUpdateId) {
        this.#unsync(...rest.slice(i));
        return false;
      }
      this.#apply(e);
    }
    return true;
  }

  /** The stream reconnected (events may be lost): unsynced until the next snapshot */
  reset(): void {
    this.#unsync();
  }

  /** The best `levels` per side: bids descending, asks ascending */
  top(levels: number): { bids: BookLevel[]; asks: BookLevel[] } {
    return { bids: best(this.#bids, levels, -1), asks: best(this.#asks, levels, 1) };
  }

  #apply(event: DepthEvent): void {
    for (const [price, qty] of event.bids) set(this.#bids, price, qty);
    for (const [price, qty] of event.asks) set(this.#asks, price, qty);
    this.#lastUpdateId = event.finalUpdateId;
    this.#time = event.time;
  }

  /** Unsynced, keeping `events` (the one that broke the chain, and any after it) for the next snapshot */
  #unsync(...events: DepthEvent[]): void {
    this.#synced = false;
    this.#buffer = events;
  }
}

function set(side: Map<string, string>, price: string, qty: string): void {
  if (Number(qty) === 0) side.delete(price);
  else side.set(price, qty);
}

/** The best levels of one side: `direction` 1 ascending (asks), -1 descending (bids) */
function best(side: ReadonlyMap<string, string>, levels: number, direction: 1 | -1): BookLevel[] {
  return [...side]
    .sort((a, b) => direction * (Number(a[0]) - Number(b[0])))
    .slice(0, levels)
    .map(([price, qty]) => [price, qty]);
}
