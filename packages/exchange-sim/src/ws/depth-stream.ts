import { Decimal } from '../common/format';
import type { SymbolSpec } from '../common/symbols';
import type { BookLevel, Market } from '../matching/market';
import { bookUpdateId } from '../matching/tape';

/**
 * Levels per side the diff depth stream follows. Binance streams changes anywhere in its book; the simulator only
 * those of the top 100 levels (a level leaving them is sent as removed), so a client that snapshots deeper keeps the
 * deeper levels as they were until they come into the top 100 (sent then) or leave the book
 */
export const DEPTH_STREAM_LEVELS = 100;

/** A book level on the wire: `[price, qty]` as decimal strings; a zero qty ("0.000" at BTCUSDT's precision) removes it */
export type LevelRow = [price: string, qty: string];

/** Levels as Binance writes them, at the symbol's price and quantity precision */
export function levelRows(spec: SymbolSpec, levels: readonly BookLevel[]): LevelRow[] {
  return levels.map((l) => [l.price.toFixed(spec.pricePrecision), l.qty.toFixed(spec.quantityPrecision)]);
}

/** Binance's futures `depthUpdate` event (the diff and the partial streams alike) */
export interface DepthUpdateEvent {
  e: 'depthUpdate';
  /** Event time */
  E: number;
  /** Transaction time */
  T: number;
  s: string;
  /** First update id in the event */
  U: number;
  /** Final update id in the event */
  u: number;
  /** Final update id of the previous event of the stream */
  pu: number;
  b: LevelRow[];
  a: LevelRow[];
}

/** The top of the book under one update id, as the diff stream compares it */
export interface BookSnapshot {
  id: number;
  /** Start of the second the book belongs to */
  second: number;
  bids: LevelRow[];
  asks: LevelRow[];
  bidQty: Map<string, string>;
  askQty: Map<string, string>;
  /** Best and last price of each side's window (none for an empty side) */
  bidEdges?: Edges;
  askEdges?: Edges;
}

/** What one subscription (connection + stream name) has been told */
export interface DepthSubscription {
  /** Final update id of the last event sent, or of the book the subscription started from */
  u: number;
  /** The book the subscriber holds after the last event: the next diff is taken against it */
  book: BookSnapshot;
}

interface BookDiff {
  b: LevelRow[];
  a: LevelRow[];
}

const secondOf = (ms: number) => Math.floor(ms / 1000) * 1000;

interface Edges {
  best: Decimal;
  worst: Decimal;
}

function edges(levels: readonly BookLevel[]): Edges | undefined {
  const best = levels[0];
  const worst = levels.at(-1);
  return best && worst ? { best: best.price, worst: worst.price } : undefined;
}

/**
 * One side's changes from `prev` to `next`: changed and new levels of the new window, zero for levels of the old
 * window that are not in the new one, and `zero` for the `gap` prices (see {@link diffBooks})
 */
function diffSide(
  prev: readonly LevelRow[],
  prevQty: ReadonlyMap<string, string>,
  next: readonly LevelRow[],
  nextQty: ReadonlyMap<string, string>,
  gap: readonly string[],
  descending: boolean,
  zero: string,
): LevelRow[] {
  const out: LevelRow[] = [];
  for (const [price, qty] of next) if (prevQty.get(price) !== qty) out.push([price, qty]);
  for (const [price] of prev) if (!nextQty.has(price)) out.push([price, zero]);
  for (const price of gap) out.push([price, zero]);
  return out.sort((x, y) => (descending ? Number(y[0]) - Number(x[0]) : Number(x[0]) - Number(y[0])));
}

/** The prices strictly between two prices of the tick grid, from `from` towards `to` */
function pricesBetween(from: Decimal, to: Decimal, tick: Decimal, precision: number): string[] {
  const steps = to.minus(from).div(tick).abs().round().toNumber() - 1;
  const dir = to.gt(from) ? tick : tick.neg();
  return Array.from({ length: Math.max(0, steps) }, (_, i) => from.plus(dir.mul(i + 1)).toFixed(precision));
}

/** Prices between the old window's far end and the new best, when the side moved (`away` from the spread) past it */
function gapBeyond(
  prev: Edges | undefined,
  next: Edges | undefined,
  away: 1 | -1,
  tick: Decimal,
  precision: number,
): string[] {
  if (!prev || !next || next.best.cmp(prev.worst) !== away) return [];
  return pricesBetween(prev.worst, next.best, tick, precision);
}

/**
 * The change from one window to the next. When the bids fall by more than the window (or the asks rise by more),
 * the prices between the old window's far end and the new best are removed as well: a client whose REST snapshot
 * went deeper than the window holds levels there the stream never followed, and they would otherwise sit above the
 * new best bid (below the new best ask) and cross its book
 */
function diffBooks(prev: BookSnapshot, next: BookSnapshot, spec: SymbolSpec): BookDiff {
  const tick = new Decimal(spec.tickSize);
  const bidGap = gapBeyond(prev.bidEdges, next.bidEdges, -1, tick, spec.pricePrecision);
  const askGap = gapBeyond(prev.askEdges, next.askEdges, 1, tick, spec.pricePrecision);
  // Binance writes a removed level's quantity at the symbol's precision like any other ("0.000")
  const zero = (0).toFixed(spec.quantityPrecision);
  return {
    b: diffSide(prev.bids, prev.bidQty, next.bids, next.bidQty, bidGap, true, zero),
    a: diffSide(prev.asks, prev.askQty, next.asks, next.askQty, askGap, false, zero),
  };
}

/**
 * Binance's diff depth stream over the synthetic book (`<symbol>@depth[@100ms|@250ms|@500ms]`), stateful per
 * subscription: each event is the change from the book last sent on that subscription, `U` = last `u` + 1 and
 * `pu` = last `u`, so a client can chain them onto a REST snapshot (same ids as `lastUpdateId`). A subscription
 * starts from the book as it is when it is made, so a snapshot fetched after subscribing is always bridged.
 *
 * Cheap with many connections: one id names one book (`bookUpdateId`), so books are built once per id and diffs
 * once per pair of ids, shared by every subscription at the same point; only the events' `U`/`pu` are their own.
 */
export class DepthStreams {
  readonly #levels: number;
  /** Books by symbol and update id; those of past seconds are dropped at each new second */
  readonly #books = new Map<string, BookSnapshot>();
  /** Diffs by symbol and the two ids, for the current second only */
  readonly #diffs = new Map<string, BookDiff>();
  #second = Number.NEGATIVE_INFINITY;

  constructor(levels = DEPTH_STREAM_LEVELS) {
    this.#levels = levels;
  }

  /** A new subscription, starting from the book of `now` */
  subscribe(market: Market, now: number): DepthSubscription {
    const book = this.#book(market, now);
    return { u: book.id, book };
  }

  /**
   * The events a subscription is owed at `now`, advancing it: none when its book has not changed, usually one, two
   * when a price command re-priced the second it was last told about (that change first, ending at the id a REST
   * snapshot taken after the command shows, then the move to `now`)
   */
  events(sub: DepthSubscription, market: Market, now: number): DepthUpdateEvent[] {
    this.#newSecond(now);
    const out: DepthUpdateEvent[] = [];
    if (bookUpdateId(market, sub.book.second) !== sub.book.id) {
      this.#advance(sub, market, this.#book(market, sub.book.second), now, out);
    }
    if (secondOf(now) > sub.book.second) this.#advance(sub, market, this.#book(market, now), now, out);
    return out;
  }

  #advance(
    sub: DepthSubscription,
    market: Market,
    next: BookSnapshot,
    now: number,
    out: DepthUpdateEvent[],
  ): void {
    const key = `${market.spec.symbol}:${sub.book.id}:${next.id}`;
    let diff = this.#diffs.get(key);
    if (!diff) {
      diff = diffBooks(sub.book, next, market.spec);
      this.#diffs.set(key, diff);
    }
    if (diff.b.length > 0 || diff.a.length > 0) {
      const s = market.spec.symbol;
      out.push({ e: 'depthUpdate', E: now, T: now, s, U: sub.u + 1, u: next.id, pu: sub.u, ...diff });
      sub.u = next.id;
    }
    // Unchanged: nothing is sent, and the next event's U…u covers this id too
    sub.book = next;
  }

  #book(market: Market, ms: number): BookSnapshot {
    const id = bookUpdateId(market, ms);
    const key = `${market.spec.symbol}:${id}`;
    const cached = this.#books.get(key);
    if (cached) return cached;
    const spec = market.spec;
    const depth = market.depth(ms, this.#levels);
    const bids = levelRows(spec, depth.bids);
    const asks = levelRows(spec, depth.asks);
    const book: BookSnapshot = {
      id,
      second: secondOf(ms),
      bids,
      asks,
      bidQty: new Map(bids),
      askQty: new Map(asks),
      bidEdges: edges(depth.bids),
      askEdges: edges(depth.asks),
    };
    this.#books.set(key, book);
    return book;
  }

  #newSecond(now: number): void {
    const second = secondOf(now);
    if (second === this.#second) return;
    this.#second = second;
    this.#diffs.clear();
    // Subscriptions hold their own books; a past second's book is rebuilt if a re-pricing asks for it again
    for (const [key, book] of this.#books) if (book.second < second) this.#books.delete(key);
  }
}
