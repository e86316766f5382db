import {
  type BookNotice,
  type CandleNotice,
  type CandleStream,
  type KlineInterval,
  MAX_WATCHED_BOOKS,
  MAX_WATCHED_CANDLES,
  MAX_WATCHED_SYMBOLS,
  type MarkPriceNotice,
  RESYNC_WILDCARD,
  SOCKET_STREAMS,
  type StreamsSubscribeParams,
  type TickerNotice,
  type TradesNotice,
} from '@kestrel/contracts';
import { BehaviorSubject, distinctUntilChanged, filter, map, merge, Observable, Subject } from 'rxjs';
import { type SocketBus, SocketRequestError, type SocketStatus } from '../socket/socket-bus';
import { SPEC } from '../spec';

/** `live`: pushes flow; `paused`: the socket is down, pages show "live data paused" and poll */
export type LiveStatus = 'live' | 'paused';

/** Watches that change within this window (a page mounting its components) go out as one `streams/subscribe` */
export const LIVE_SUBSCRIBE_DEBOUNCE_MS = 50;

/**
 * What one component watches: symbols for ticker and mark-price pushes, (symbol, interval) pairs for candles,
 * symbols for the order book and trades
 */
export interface LiveWatch {
  symbols?: readonly string[];
  candles?: readonly CandleStream[];
  books?: readonly string[];
}

/** An account notice, reduced to what query invalidation needs */
export interface AccountChange {
  kind: 'order' | 'position' | 'balance';
  /** The server's stream had a gap: everything of the account may have changed (`RESYNC_WILDCARD`) */
  resync: boolean;
}

/** Page-level live data: merged subscriptions, the live/paused status and typed push streams */
export interface LiveData {
  readonly status$: Observable<LiveStatus>;
  readonly status: LiveStatus;
  /** Emits each time the socket is back after a pause (pushes of the pause are lost: refetch once) */
  readonly resumed$: Observable<void>;
  /**
   * Adds one component's watch; returns its release. The runtime counts references per symbol and per candle
   * stream and sends the socket one merged `streams/subscribe` (debounced), which the bus re-sends on every
   * reconnect. Until the first watch the server's defaults apply
   */
  watch(what: LiveWatch): () => void;
  /** Latest ticker per symbol, at most one emission per animation frame; watches the symbols while subscribed */
  tickers$(symbols: readonly string[]): Observable<ReadonlyMap<string, TickerNotice>>;
  /** Latest mark price per symbol, as `tickers$` */
  markPrices$(symbols: readonly string[]): Observable<ReadonlyMap<string, MarkPriceNotice>>;
  /** Candle pushes of one stream (forming at most 4/s, then closed); watches it while subscribed */
  candles$(symbol: string, interval: KlineInterval): Observable<CandleNotice>;
  /** The symbol's order book as the server keeps it (at most 10 pushes a second), the latest per animation frame */
  book$(symbol: string): Observable<BookNotice>;
  /** The symbol's trades, a batch per push (at most 10 a second); watches the book while subscribed */
  trades$(symbol: string): Observable<TradesNotice>;
  /** Order, position and balance notices (RESYNC included), for query invalidation */
  readonly accountChanges$: Observable<AccountChange>;
  /** The merged subscription last handed to the bus (undefined before the first watch) */
  readonly subscription: StreamsSubscribeParams | undefined;
  dispose(): void;
}

export interface LiveDataDeps {
  bus: SocketBus;
  debounceMs?: number;
  /** How long the first connection may take before the page counts as paused (the spec's 3 s connect wait) */
  firstConnectGraceMs?: number;
  /** Runs `cb` before the next paint; returns its cancel. `requestAnimationFrame` in browsers */
  nextFrame?: (cb: () => void) => () => void;
  warn?: (message: string) => void;
}

function animationFrame(cb: () => void): () => void {
  if (typeof globalThis.requestAnimationFrame === 'function') {
    const id = globalThis.requestAnimationFrame(() => cb());
    return () => globalThis.cancelAnimationFrame(id);
  }
  const id = setTimeout(cb, 16);
  return () => clearTimeout(id);
}

/** The symbols a refused `streams/subscribe` names in `error.data.unlisted` */
function unlistedSymbols(error: unknown): string[] {
  if (!(error instanceof SocketRequestError)) return [];
  const unlisted = (error.data as { unlisted?: unknown } | undefined)?.unlisted;
  return Array.isArray(unlisted) ? unlisted.filter((s): s is string => typeof s === 'string') : [];
}

const pairKey = (symbol: string, interval: string) => `${symbol}|${interval}`;

/** What the socket accepts as a symbol: one bad symbol would make it refuse the whole merged subscription */
const SYMBOL = /^[A-Z0-9]{2,20}$/;

function addRef(refs: Map<string, number>, key: string) {
  refs.set(key, (refs.get(key) ?? 0) + 1);
}

function dropRef(refs: Map<string, number>, key: string) {
  const n = (refs.get(key) ?? 0) - 1;
  if (n > 0) refs.set(key, n);
  else refs.delete(key);
}

/** The live data of a page, over its one socket bus */
export function createLiveData(deps: LiveDataDeps): LiveData {
  const { bus } = deps;
  const debounceMs = deps.debounceMs ?? LIVE_SUBSCRIBE_DEBOUNCE_MS;
  const graceMs = deps.firstConnectGraceMs ?? SPEC.socketConnectWaitMs;
  const nextFrame = deps.nextFrame ?? animationFrame;
  const warn = deps.warn ?? ((message: string) => console.warn(message));

  // ---- live / paused -------------------------------------------------------------------------------------------
  const status = new BehaviorSubject<LiveStatus>(bus.status === 'connected' ? 'live' : 'paused');
  const resumed = new Subject<void>();
  let everConnected = bus.status === 'connected';
  let grace: ReturnType<typeof setTimeout> | undefined;
  const setStatus = (next: LiveStatus) => {
    const before = status.getValue();
    if (before === next) return;
    status.next(next);
    if (before === 'paused' && next === 'live' && everConnected) resumed.next();
  };
  const onSocket = (s: SocketStatus) => {
    if (s === 'connected') {
      clearTimeout(grace);
      grace = undefined;
      everConnected = true;
      setStatus('live');
      return;
    }
    if (everConnected) {
      setStatus('paused');
      return;
    }
    // The first connection of the page: not "paused" while it is being made, unless it takes too long
    if (s === 'connecting' && grace === undefined) {
      setStatus('live');
      grace = setTimeout(() => setStatus('paused'), graceMs);
    }
  };
  const statusWatch = bus.status$.subscribe(onSocket);

  // ---- merged subscription -------------------------------------------------------------------------------------
  const symbolRefs = new Map<string, number>();
  const candleRefs = new Map<string, number>();
  const pairs = new Map<string, CandleStream>();
  const bookRefs = new Map<string, number>();
  /** Books were sent once: an empty list must then go out to stop them */
  let booksSent = false;
  /** Candle symbols the server refused (the exchange does not list them): left out for the page's life */
  const refused = new Set<string>();
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let sent: StreamsSubscribeParams | undefined;
  let sentKey = '';

  const flush = () => {
    flushTimer = undefined;
    const symbols = [...symbolRefs.keys()].sort();
    const candles = [...candleRefs.keys()]
      .sort()
      .map((k) => pairs.get(k) as CandleStream)
      .filter((c) => !refused.has(c.symbol));
    if (symbols.length > MAX_WATCHED_SYMBOLS) {
      warn(
        `Live data: ${symbols.length} symbols watched, the socket takes ${MAX_WATCHED_SYMBOLS}; the rest wait`,
      );
    }
    if (candles.length > MAX_WATCHED_CANDLES) {
      warn(`Live data: ${candles.length} candle streams watched, the socket takes ${MAX_WATCHED_CANDLES}`);
    }
    const books = [...bookRefs.keys()].sort().filter((s) => !refused.has(s));
    if (books.length > MAX_WATCHED_BOOKS) {
      warn(`Live data: ${books.length} order books watched, the socket takes ${MAX_WATCHED_BOOKS}`);
    }
    booksSent ||= books.length > 0;
    const choice: StreamsSubscribeParams = {
      streams: [...SOCKET_STREAMS],
      symbols: symbols.slice(0, MAX_WATCHED_SYMBOLS),
      candles: candles.slice(0, MAX_WATCHED_CANDLES),
      ...(booksSent ? { books: books.slice(0, MAX_WATCHED_BOOKS) } : {}),
    };
    const key = JSON.stringify(choice);
    if (key === sentKey) return;
    sentKey = key;
    sent = choice;
    bus.subscribe(choice).catch((error: unknown) => {
      warn(
        `Live data: the socket refused the subscription (${error instanceof Error ? error.message : 'error'})`,
      );
      // Candles of symbols the exchange does not list: send the rest without them, so one bad chart does not stop
      // every other watch of the page (the server keeps the previous subscription meanwhile)
      const unlisted = unlistedSymbols(error);
      if (unlisted.length === 0) return;
      for (const s of unlisted) refused.add(s);
      sentKey = '';
      schedule();
    });
  };
  const schedule = () => {
    flushTimer ??= setTimeout(flush, debounceMs);
  };

  function watch(what: LiveWatch): () => void {
    const valid = (symbol: string) => {
      if (SYMBOL.test(symbol)) return true;
      warn(`Live data: "${symbol.slice(0, 24)}" is not a symbol such as BTCUSDT; not watched`);
      return false;
    };
    const symbols = [...new Set((what.symbols ?? []).map((s) => s.toUpperCase()))].filter(valid);
    const candles = (what.candles ?? [])
      .map((c) => ({ symbol: c.symbol.toUpperCase(), interval: c.interval }))
      .filter((c) => valid(c.symbol));
    const keys = [...new Set(candles.map((c) => pairKey(c.symbol, c.interval)))];
    const books = [...new Set((what.books ?? []).map((s) => s.toUpperCase()))].filter(valid);
    for (const s of books) addRef(bookRefs, s);
    for (const s of symbols) addRef(symbolRefs, s);
    for (const c of candles) pairs.set(pairKey(c.symbol, c.interval), c);
    for (const k of keys) addRef(candleRefs, k);
    schedule();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const s of symbols) dropRef(symbolRefs, s);
      for (const s of books) dropRef(bookRefs, s);
      for (const k of keys) {
        dropRef(candleRefs, k);
        if (!candleRefs.has(k)) pairs.delete(k);
      }
      schedule();
    };
  }

  // ---- typed streams -------------------------------------------------------------------------------------------
  /**
   * Latest notice per symbol of `source`, emitted at most once per frame, watching `symbols` while subscribed (as
   * market symbols, or as `as` says: the order books)
   */
  function latestPerSymbol<T extends { symbol: string }>(
    source: Observable<T>,
    symbols: readonly string[],
    as: 'symbols' | 'books' = 'symbols',
  ): Observable<ReadonlyMap<string, T>> {
    const wanted = new Set(symbols.map((s) => s.toUpperCase()));
    return new Observable<ReadonlyMap<string, T>>((subscriber) => {
      const release = watch({ [as]: [...wanted] });
      const latest = new Map<string, T>();
      let cancelFrame: (() => void) | undefined;
      const pushes = source.subscribe((notice) => {
        if (!wanted.has(notice.symbol)) return;
        latest.set(notice.symbol, notice);
        cancelFrame ??= nextFrame(() => {
          cancelFrame = undefined;
          subscriber.next(new Map(latest));
        });
      });
      return () => {
        pushes.unsubscribe();
        cancelFrame?.();
        release();
      };
    });
  }

  function candles$(symbol: string, interval: KlineInterval): Observable<CandleNotice> {
    const s = symbol.toUpperCase();
    return new Observable<CandleNotice>((subscriber) => {
      const release = watch({ candles: [{ symbol: s, interval }] });
      const pushes = bus.candles$
        .pipe(filter((c) => c.symbol === s && c.interval === interval))
        .subscribe(subscriber);
      return () => {
        pushes.unsubscribe();
        release();
      };
    });
  }

  /** A book replaces the one before: one emission per frame however many pushes arrived */
  function book$(symbol: string): Observable<BookNotice> {
    const s = symbol.toUpperCase();
    return latestPerSymbol(bus.events$('book'), [s], 'books').pipe(
      map((books) => books.get(s)),
      filter((b): b is BookNotice => b !== undefined),
    );
  }

  function trades$(symbol: string): Observable<TradesNotice> {
    const s = symbol.toUpperCase();
    return new Observable<TradesNotice>((subscriber) => {
      const release = watch({ books: [s] });
      const pushes = bus
        .events$('trades')
        .pipe(filter((t) => t.symbol === s))
        .subscribe(subscriber);
      return () => {
        pushes.unsubscribe();
        release();
      };
    });
  }

  const accountChanges$ = merge(
    bus.orders$.pipe(map((): AccountChange => ({ kind: 'order', resync: false }))),
    bus.positions$.pipe(
      map((p): AccountChange => ({ kind: 'position', resync: p.symbol === RESYNC_WILDCARD })),
    ),
    bus.balances$.pipe(map((b): AccountChange => ({ kind: 'balance', resync: b.asset === RESYNC_WILDCARD }))),
  );

  return {
    status$: status.pipe(distinctUntilChanged()),
    get status() {
      return status.getValue();
    },
    resumed$: resumed.asObservable(),
    watch,
    tickers$: (symbols) => latestPerSymbol(bus.tickers$, symbols),
    markPrices$: (symbols) => latestPerSymbol(bus.markPrices$, symbols),
    candles$,
    book$,
    trades$,
    accountChanges$,
    get subscription() {
      return sent;
    },
    dispose() {
      statusWatch.unsubscribe();
      clearTimeout(grace);
      clearTimeout(flushTimer);
      flushTimer = undefined;
    },
  };
}
