import type { KlineInterval, TradingEnvironment } from '@kestrel/contracts';
import type { Clock, Timer } from '../../lib/clock';
import type {
  ExchangeStreams,
  KlineEvent,
  MarketEvent,
  MarketStream,
  MarketTopic,
} from '../exchange/exchange-streams';
import type { OrderBookSnapshot } from '../exchange/exchange-types';
import { candleKey, type LiveEvent, type PushTarget } from '../socket/socket-bus';
import { BookFeeds } from './book-feeds';

/** The market streams kept per watched symbol: what the ticker and mark-price pushes need */
const MARKET_KINDS = ['ticker', 'markPrice'] as const;
const MARKET_KIND_SET: ReadonlySet<string> = new Set(MARKET_KINDS);
/** The streams of a watched order book: its diffs and its trades */
const BOOK_KINDS = ['depth', 'aggTrade'] as const;

/** Least time between two pushes of one forming candle (4 a second); a closing candle is pushed at once */
export const CANDLE_PUSH_MIN_MS = 250;

/** How a symbol's order book (and trades) stream is named among the demand keys */
export function bookKey(symbol: string): string {
  return `${symbol}#book`;
}

/** The default environment: its pushes carry no environment and its event ids no prefix (as before environments) */
export const DEFAULT_ENVIRONMENT: TradingEnvironment = 'testnet';

/**
 * A demand key: an environment's symbol (ticker and mark price) or `candleKey` (one kline stream). Testnet's and
 * mainnet's markets are apart: a socket of a user on mainnet watches mainnet's prices
 */
export function demandKey(environment: TradingEnvironment, what: string): string {
  return `${environment}/${what}`;
}

/** What a demand key names */
function parseDemandKey(key: string): {
  environment: TradingEnvironment;
  symbol: string;
  interval?: string;
  book?: true;
} {
  const slash = key.indexOf('/');
  const environment: TradingEnvironment = key.slice(0, slash) === 'mainnet' ? 'mainnet' : 'testnet';
  const what = key.slice(slash + 1);
  if (what.endsWith('#book')) return { environment, symbol: what.slice(0, -'#book'.length), book: true };
  const [symbol = '', interval] = what.split('|');
  return interval ? { environment, symbol, interval } : { environment, symbol };
}

/** The forming candle pushes of one (symbol, interval): when the last went out, and the latest one held back */
interface CandleThrottle {
  lastAt: number;
  pending?: KlineEvent;
  timer?: Timer;
}

/** Candle consumers of one (symbol, interval): every update, the forming ones and the closing one */
type CandleListeners = Set<(e: KlineEvent) => void>;

export interface MarketFeedsDeps {
  /** The default environment's market streams */
  marketStream: ExchangeStreams['marketStream'];
  /** Market streams of another environment; undefined when this server has none there */
  marketStreamOf?(environment: TradingEnvironment): ExchangeStreams['marketStream'] | undefined;
  isListed(symbol: string, environment: TradingEnvironment): Promise<boolean>;
  /** The REST order book of a symbol (`GET /fapi/v1/depth`), for syncing the books sockets watch */
  depthSnapshot(environment: TradingEnvironment, symbol: string, limit: number): Promise<OrderBookSnapshot>;
  /** Sends one push with its event id (counted and logged by the caller) */
  publish(target: PushTarget, event: LiveEvent, id: string): void;
  clock: Clock;
  lingerMs: number;
  log: {
    warn(obj: object, msg: string): void;
    info(obj: object, msg: string): void;
  };
}

/**
 * The market half of the live pushes: demand per key (sockets and server-side consumers count alike), one
 * upstream market connection per environment with demand, a linger before a stream no one needs is dropped, and the
 * forming-candle throttle. `LiveStreams` counts the demand; this turns it into upstream topics and pushes
 */
export class MarketFeeds {
  /** Sockets and consumers per watched symbol or candle stream (see `parseDemandKey`) */
  readonly #demand = new Map<string, number>();
  /** Forming-candle throttles per demand key of a candle stream */
  readonly #candleThrottle = new Map<string, CandleThrottle>();
  /** Upstream streams no one needs any more, waiting out the linger, per demand key */
  readonly #lingering = new Map<string, Timer>();
  /** Server-side consumers of candles (running bots), per demand key of a candle stream */
  readonly #candleListeners = new Map<string, CandleListeners>();
  /** One upstream market connection per environment with demand */
  readonly #markets = new Map<TradingEnvironment, MarketStream>();
  /** The order books and trades of the symbols sockets watch them of */
  readonly books: BookFeeds;
  #closed = false;

  constructor(private readonly deps: MarketFeedsDeps) {
    this.books = new BookFeeds({
      snapshot: (environment, symbol, limit) => deps.depthSnapshot(environment, symbol, limit),
      publish: (target, event, id) => deps.publish(target, event, id),
      target: (environment, symbol) => ({ ...this.#target(environment, symbol), book: true }),
      eventId: (environment, id) => this.#id(environment, id),
      clock: deps.clock,
      log: deps.log,
    });
  }

  symbolsOf(environment: TradingEnvironment): string[] {
    const topics = this.#markets.get(environment)?.topics ?? [];
    return [...new Set(topics.filter((t) => MARKET_KIND_SET.has(t.kind)).map((t) => t.symbol))].sort();
  }

  /** Symbols whose order book is streamed upstream now */
  bookSymbolsOf(environment: TradingEnvironment): string[] {
    const topics = this.#markets.get(environment)?.topics ?? [];
    return [...new Set(topics.filter((t) => t.kind === 'depth').map((t) => t.symbol))].sort();
  }

  candleStreamsOf(environment: TradingEnvironment): string[] {
    return (this.#markets.get(environment)?.topics ?? [])
      .filter((t) => t.kind === 'kline')
      .map((t) => `${t.symbol}@${t.interval}`)
      .sort();
  }

  /** See `LiveStreams.watchCandles` */
  watchCandles(
    symbol: string,
    interval: string,
    listener: (e: KlineEvent) => void,
    environment: TradingEnvironment,
  ): () => void {
    const key = demandKey(environment, candleKey(symbol, interval));
    let listeners = this.#candleListeners.get(key);
    if (!listeners) {
      listeners = new Set();
      this.#candleListeners.set(key, listeners);
    }
    listeners.add(listener);
    this.up(key);
    return () => {
      if (!listeners.delete(listener)) return;
      if (listeners.size === 0) this.#candleListeners.delete(key);
      this.down(key);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.books.close();
    for (const t of this.#lingering.values()) t.cancel();
    this.#lingering.clear();
    for (const t of this.#candleThrottle.values()) t.timer?.cancel();
    this.#candleThrottle.clear();
    const markets = [...this.#markets.values()];
    this.#markets.clear();
    await Promise.all(markets.map((m) => m.close()));
  }

  /** One more socket or consumer needs the key's stream: opened on the first, kept when it was lingering */
  up(key: string): void {
    const n = (this.#demand.get(key) ?? 0) + 1;
    this.#demand.set(key, n);
    const pending = this.#lingering.get(key);
    if (pending) {
      pending.cancel();
      this.#lingering.delete(key);
      return;
    }
    if (n === 1 && !this.#closed) void this.#start(key);
  }

  /** One fewer: after the last, the stream lingers `lingerMs` before it is dropped */
  down(key: string): void {
    const n = (this.#demand.get(key) ?? 0) - 1;
    if (n > 0) {
      this.#demand.set(key, n);
      return;
    }
    this.#demand.delete(key);
    this.#lingering.set(
      key,
      this.deps.clock.after(this.deps.lingerMs, () => {
        this.#lingering.delete(key);
        const { environment, symbol, book } = parseDemandKey(key);
        const market = this.#markets.get(environment);
        market?.remove(this.#topics(key));
        if (book) this.books.stop(environment, symbol);
        this.#candleThrottle.get(key)?.timer?.cancel();
        this.#candleThrottle.delete(key);
        if (market && market.topics.length === 0) {
          void market.close();
          this.#markets.delete(environment);
        }
      }),
    );
  }

  #topics(key: string): MarketTopic[] {
    const { symbol, interval, book } = parseDemandKey(key);
    if (interval) return [{ symbol, kind: 'kline', interval }];
    if (book) return BOOK_KINDS.map((kind) => ({ symbol, kind }));
    return MARKET_KINDS.map((kind) => ({ symbol, kind }));
  }

  /** The environment's upstream market connection, opened on first use; undefined when it has none */
  #marketOf(environment: TradingEnvironment): MarketStream | undefined {
    let market = this.#markets.get(environment);
    if (market) return market;
    const open =
      environment === DEFAULT_ENVIRONMENT ? this.deps.marketStream : this.deps.marketStreamOf?.(environment);
    if (!open) return undefined;
    market = open({
      onEvent: (e) => this.#event(environment, e),
      // Diffs may have been missed while the connection was down: the books resync from a new snapshot
      onState: (state, { gap }) => {
        if (state === 'open' && gap) this.books.reset(environment);
      },
      onError: (err) =>
        this.deps.log.warn({ err: err.message, environment }, 'live streams: market stream trouble'),
    });
    this.#markets.set(environment, market);
    return market;
  }

  async #start(key: string): Promise<void> {
    const { environment, symbol, book } = parseDemandKey(key);
    let listed: boolean;
    try {
      listed = await this.deps.isListed(symbol, environment);
    } catch (err) {
      this.deps.log.warn(
        { err, symbol },
        'live streams: could not check the symbol; no market pushes for it',
      );
      return;
    }
    if (!listed) {
      this.deps.log.info({ symbol }, 'live streams: the exchange does not list this symbol');
      return;
    }
    // Still wanted (or lingering: its linger timer removes it) once the check answered?
    if ((!this.#demand.has(key) && !this.#lingering.has(key)) || this.#closed) return;
    const market = this.#marketOf(environment);
    if (!market) {
      this.deps.log.warn({ environment }, 'live streams: the environment has no live market data here');
      return;
    }
    if (book) this.books.start(environment, symbol);
    market.add(this.#topics(key));
  }

  /**
   * Where a market push of an environment goes: the sockets watching the symbol in that environment. The default
   * environment's pushes name none (the bus reads none as it), and their ids keep their old form
   */
  #target(
    environment: TradingEnvironment,
    symbol: string,
    interval?: string,
  ): { symbol: string; interval?: string; environment?: TradingEnvironment } {
    return {
      symbol,
      ...(interval ? { interval } : {}),
      ...(environment === DEFAULT_ENVIRONMENT ? {} : { environment }),
    };
  }

  #id(environment: TradingEnvironment, id: string): string {
    return environment === DEFAULT_ENVIRONMENT ? id : `${environment}:${id}`;
  }

  #event(environment: TradingEnvironment, e: MarketEvent): void {
    if (e.type === 'ticker') {
      this.deps.publish(
        this.#target(environment, e.symbol),
        {
          kind: 'ticker',
          data: {
            symbol: e.symbol,
            lastPrice: e.lastPrice,
            priceChangePercent: e.priceChangePercent,
            highPrice: e.highPrice,
            lowPrice: e.lowPrice,
            volume: e.volume,
            time: e.time,
          },
        },
        this.#id(environment, `ticker:${e.symbol}:${e.time}`),
      );
    } else if (e.type === 'markPrice') {
      this.deps.publish(
        this.#target(environment, e.symbol),
        {
          kind: 'markPrice',
          data: {
            symbol: e.symbol,
            markPrice: e.markPrice,
            indexPrice: e.indexPrice,
            fundingRate: e.fundingRate,
            nextFundingTime: e.nextFundingTime,
            time: e.time,
          },
        },
        this.#id(environment, `markPrice:${e.symbol}:${e.time}`),
      );
    } else if (e.type === 'depth') {
      this.books.onDepth(environment, e);
    } else if (e.type === 'aggTrade') {
      this.books.onTrade(environment, e);
    } else if (e.type === 'kline') {
      const key = demandKey(environment, candleKey(e.symbol, e.interval));
      this.#tell(this.#candleListeners.get(key), e);
      this.#candle(environment, key, e);
    }
  }

  #tell(listeners: CandleListeners | undefined, e: KlineEvent): void {
    for (const listener of listeners ?? []) {
      try {
        listener(e);
      } catch (err) {
        this.deps.log.warn({ err }, 'live streams: a candle consumer failed');
      }
    }
  }

  /**
   * A forming candle goes out at most every `CANDLE_PUSH_MIN_MS` (the latest figures, sent when the wait is over);
   * a closing candle goes out at once and replaces a held-back update of the same bar
   */
  #candle(environment: TradingEnvironment, key: string, e: KlineEvent): void {
    if (!this.#demand.has(key) && !this.#lingering.has(key)) return;
    let throttle = this.#candleThrottle.get(key);
    if (!throttle) {
      throttle = { lastAt: Number.NEGATIVE_INFINITY };
      this.#candleThrottle.set(key, throttle);
    }
    const now = this.deps.clock.now().getTime();
    if (e.closed) {
      if (throttle.pending?.kline.openTime === e.kline.openTime) {
        throttle.timer?.cancel();
        throttle.timer = undefined;
        throttle.pending = undefined;
      }
      this.#publishCandle(environment, e);
      return;
    }
    if (throttle.timer) {
      throttle.pending = e;
      return;
    }
    const wait = throttle.lastAt + CANDLE_PUSH_MIN_MS - now;
    if (wait <= 0) {
      throttle.lastAt = now;
      this.#publishCandle(environment, e);
      return;
    }
    const t = throttle;
    t.pending = e;
    t.timer = this.deps.clock.after(wait, () => {
      t.timer = undefined;
      const held = t.pending;
      t.pending = undefined;
      if (!held || this.#closed) return;
      t.lastAt = this.deps.clock.now().getTime();
      this.#publishCandle(environment, held);
    });
  }

  #publishCandle(environment: TradingEnvironment, e: KlineEvent): void {
    const k = e.kline;
    this.deps.publish(
      this.#target(environment, e.symbol, e.interval),
      {
        kind: 'candle',
        data: {
          symbol: e.symbol,
          interval: e.interval as KlineInterval,
          openTime: k.openTime,
          closeTime: k.closeTime,
          open: k.open,
          high: k.high,
          low: k.low,
          close: k.close,
          volume: k.volume,
          closed: e.closed,
          time: e.time,
        },
      },
      this.#id(environment, `candle:${e.symbol}:${e.interval}:${k.openTime}:${e.closed ? 'closed' : e.time}`),
    );
  }
}
