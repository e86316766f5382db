import { BOOK_PUSH_LEVELS, type TapeTrade, type TradingEnvironment } from '@kestrel/contracts';
import type { Clock, Timer } from '../../lib/clock';
import type { AggTradeEvent, DepthEvent } from '../exchange/exchange-streams';
import type { OrderBookSnapshot } from '../exchange/exchange-types';
import type { LiveEvent, PushTarget } from '../socket/socket-bus';
import { OrderBookSync } from './order-book';

/** Least time between two book (or trades) pushes of one symbol: ten a second, the latest book wins */
export const BOOK_PUSH_MIN_MS = 100;
/** Levels asked for when (re)syncing: deep enough that the levels shown are never missing from the snapshot */
export const BOOK_SNAPSHOT_LEVELS = 1000;
/** Trades kept per symbol for a page that opens the tape */
export const RECENT_TRADES_KEPT = 50;
/** Wait before asking again when a snapshot did not fit the stream or could not be read (doubles up to 30 s) */
const RESYNC_FIRST_WAIT_MS = 500;
const RESYNC_MAX_WAIT_MS = 30_000;

export interface BookFeedsDeps {
  /** The REST book of a symbol in an environment (`GET /fapi/v1/depth`) */
  snapshot(environment: TradingEnvironment, symbol: string, limit: number): Promise<OrderBookSnapshot>;
  publish(target: PushTarget, event: LiveEvent, id: string): void;
  /** Where an environment's market pushes go (the default environment's name none) */
  target(environment: TradingEnvironment, symbol: string): PushTarget;
  /** An environment's event ids (the default environment's carry no prefix) */
  eventId(environment: TradingEnvironment, id: string): string;
  clock: Clock;
  log: { warn(obj: object, msg: string): void };
}

/** One watched symbol's book and tape */
interface Feed {
  environment: TradingEnvironment;
  symbol: string;
  book: OrderBookSync;
  /** A snapshot request in flight (one at a time) */
  fetching: boolean;
  /** The wait before the next snapshot when the last one failed or did not fit */
  retryWaitMs: number;
  retry?: Timer;
  bookPushes: Paced;
  /** Trades not pushed yet, oldest first */
  pendingTrades: TapeTrade[];
  tradePushes: Paced;
  recent: TapeTrade[];
  /** Snapshots taken (the resyncs a trader never sees, counted for tests and logs) */
  snapshots: number;
}

const feedKey = (environment: TradingEnvironment, symbol: string) => `${environment}/${symbol}`;

/**
 * At most one `send` per `minMs`: a request runs it at once when the last one is that old, else once when the wait
 * is over (requests meanwhile are that one). `send` says whether it sent: only then does the wait start again
 */
class Paced {
  #lastAt = Number.NEGATIVE_INFINITY;
  #timer: Timer | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly minMs: number,
    private readonly send: () => boolean,
  ) {}

  request(): void {
    if (this.#timer) return;
    const wait = this.#lastAt + this.minMs - this.clock.now().getTime();
    if (wait <= 0) {
      this.#run();
      return;
    }
    this.#timer = this.clock.after(wait, () => {
      this.#timer = undefined;
      this.#run();
    });
  }

  cancel(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  #run(): void {
    if (this.send()) this.#lastAt = this.clock.now().getTime();
  }
}

/**
 * Order books and trades tapes of the symbols sockets watch: one book per (environment, symbol), kept in sync
 * with the exchange's diff stream and REST snapshots (`OrderBookSync`), pushed at most every `BOOK_PUSH_MIN_MS`
 * with its best `BOOK_PUSH_LEVELS` per side; trades are batched the same way. `MarketFeeds` owns the upstream
 * topics and the demand; this keeps the books
 */
export class BookFeeds {
  readonly #feeds = new Map<string, Feed>();
  #closed = false;

  constructor(private readonly deps: BookFeedsDeps) {}

  /** The stream of the symbol's book and trades was subscribed upstream */
  start(environment: TradingEnvironment, symbol: string): void {
    const key = feedKey(environment, symbol);
    if (this.#feeds.has(key) || this.#closed) return;
    const feed: Feed = {
      environment,
      symbol,
      book: new OrderBookSync(),
      fetching: false,
      retryWaitMs: RESYNC_FIRST_WAIT_MS,
      bookPushes: new Paced(this.deps.clock, BOOK_PUSH_MIN_MS, () => this.#pushBook(feed)),
      pendingTrades: [],
      tradePushes: new Paced(this.deps.clock, BOOK_PUSH_MIN_MS, () => this.#pushTrades(feed)),
      recent: [],
      snapshots: 0,
    };
    this.#feeds.set(key, feed);
  }

  /** No one watches the symbol any more: its book is forgotten */
  stop(environment: TradingEnvironment, symbol: string): void {
    const key = feedKey(environment, symbol);
    const feed = this.#feeds.get(key);
    if (!feed) return;
    this.#cancel(feed);
    this.#feeds.delete(key);
  }

  /** The environment's market connection came back after a break: every book of it resyncs */
  reset(environment: TradingEnvironment): void {
    for (const feed of this.#feeds.values()) if (feed.environment === environment) feed.book.reset();
  }

  close(): void {
    this.#closed = true;
    for (const feed of this.#feeds.values()) this.#cancel(feed);
    this.#feeds.clear();
  }

  /** The synced book's best levels, for a page opening it; undefined while it is not synced (or not watched) */
  book(
    environment: TradingEnvironment,
    symbol: string,
    levels: number,
  ): { lastUpdateId: number; time: number; bids: [string, string][]; asks: [string, string][] } | undefined {
    const feed = this.#feeds.get(feedKey(environment, symbol));
    if (!feed?.book.synced) return undefined;
    return { lastUpdateId: feed.book.lastUpdateId, time: feed.book.time, ...feed.book.top(levels) };
  }

  /** The trades seen lately, oldest first; undefined when the symbol's tape is not followed here */
  recentTrades(environment: TradingEnvironment, symbol: string): TapeTrade[] | undefined {
    return this.#feeds.get(feedKey(environment, symbol))?.recent.slice();
  }

  /** Snapshots taken for a symbol's book so far (each sync and resync) */
  snapshotsOf(environment: TradingEnvironment, symbol: string): number {
    return this.#feeds.get(feedKey(environment, symbol))?.snapshots ?? 0;
  }

  onDepth(environment: TradingEnvironment, event: DepthEvent): void {
    const feed = this.#feeds.get(feedKey(environment, event.symbol));
    if (!feed) return;
    const outcome = feed.book.onDiff(event);
    if (outcome === 'applied') feed.bookPushes.request();
    // The stream flows (or broke): a snapshot now lines it up, unless one is already coming
    else if (outcome === 'buffered' || outcome === 'gap') this.#resync(feed);
  }

  onTrade(environment: TradingEnvironment, event: AggTradeEvent): void {
    const feed = this.#feeds.get(feedKey(environment, event.symbol));
    if (!feed) return;
    const trade: TapeTrade = {
      id: event.id,
      price: event.price,
      quantity: event.quantity,
      buyerMaker: event.buyerMaker,
      time: event.time,
    };
    feed.recent.push(trade);
    if (feed.recent.length > RECENT_TRADES_KEPT)
      feed.recent.splice(0, feed.recent.length - RECENT_TRADES_KEPT);
    feed.pendingTrades.push(trade);
    feed.tradePushes.request();
  }

  #resync(feed: Feed): void {
    if (feed.fetching || feed.retry || this.#closed) return;
    feed.fetching = true;
    feed.snapshots += 1;
    this.deps.snapshot(feed.environment, feed.symbol, BOOK_SNAPSHOT_LEVELS).then(
      (snapshot) => {
        feed.fetching = false;
        if (this.#feeds.get(feedKey(feed.environment, feed.symbol)) !== feed) return;
        if (feed.book.onSnapshot(snapshot)) {
          feed.retryWaitMs = RESYNC_FIRST_WAIT_MS;
          feed.bookPushes.request();
        } else this.#retryLater(feed);
      },
      (err: unknown) => {
        feed.fetching = false;
        this.deps.log.warn(
          { err, symbol: feed.symbol, environment: feed.environment },
          'live streams: order book snapshot failed',
        );
        this.#retryLater(feed);
      },
    );
  }

  /** Another snapshot after a wait that doubles each time (a snapshot costs 20 of the exchange's weight) */
  #retryLater(feed: Feed): void {
    if (this.#closed || feed.retry) return;
    const wait = feed.retryWaitMs;
    feed.retryWaitMs = Math.min(RESYNC_MAX_WAIT_MS, wait * 2);
    feed.retry = this.deps.clock.after(wait, () => {
      feed.retry = undefined;
      if (!feed.book.synced) this.#resync(feed);
    });
  }

  /** The book's push; false when there is none to send (closed, or not synced) */
  #pushBook(feed: Feed): boolean {
    if (this.#closed || !feed.book.synced) return false;
    const { bids, asks } = feed.book.top(BOOK_PUSH_LEVELS);
    const lastUpdateId = feed.book.lastUpdateId;
    this.deps.publish(
      this.deps.target(feed.environment, feed.symbol),
      { kind: 'book', data: { symbol: feed.symbol, lastUpdateId, bids, asks, time: feed.book.time } },
      this.deps.eventId(feed.environment, `book:${feed.symbol}:${lastUpdateId}`),
    );
    return true;
  }

  /** The trades not pushed yet, in one push; false when there are none */
  #pushTrades(feed: Feed): boolean {
    const trades = feed.pendingTrades;
    const last = trades.at(-1);
    if (this.#closed || !last) return false;
    feed.pendingTrades = [];
    this.deps.publish(
      this.deps.target(feed.environment, feed.symbol),
      { kind: 'trades', data: { symbol: feed.symbol, trades, time: last.time } },
      this.deps.eventId(feed.environment, `trades:${feed.symbol}:${last.id}`),
    );
    return true;
  }

  #cancel(feed: Feed): void {
    feed.retry?.cancel();
    feed.bookPushes.cancel();
    feed.tradePushes.cancel();
  }
}
