import { type KlineInterval, RESYNC_WILDCARD, type TradingEnvironment } from '@kestrel/contracts';
import type { ExchangeKeys } from '../exchange/exchange-adapter';
import type {
  AccountUpdateEvent,
  AlgoOrderUpdateEvent,
  ExchangeStreams,
  KlineEvent,
  MarketEvent,
  MarketStream,
  MarketTopic,
  OrderUpdateEvent,
  UserDataStream,
} from '../exchange/exchange-streams';
import {
  type BusConnection,
  type BusObserver,
  candleKey,
  type LiveEvent,
  type PublishOptions,
  type PushTarget,
} from '../socket/socket-bus';

/** How long an upstream stream outlives its last socket: a page reload or a quick reconnect reuses it */
export const STREAM_LINGER_MS = 30_000;

/** The market streams kept per watched symbol: what the ticker and mark-price pushes need */
const MARKET_KINDS = ['ticker', 'markPrice'] as const;

/** Least time between two pushes of one forming candle (4 a second); a closing candle is pushed at once */
export const CANDLE_PUSH_MIN_MS = 250;

/** What a demand key names: a symbol (ticker and mark price) or a `candleKey` (one kline stream) */
function parseDemandKey(key: string): { symbol: string; interval?: string } {
  const [symbol = key, interval] = key.split('|');
  return interval ? { symbol, interval } : { symbol };
}

/** The forming candle pushes of one (symbol, interval): when the last went out, and the latest one held back */
interface CandleThrottle {
  lastAt: number;
  pending?: KlineEvent;
  timer?: ReturnType<typeof setTimeout>;
}

/** Closed-candle consumers of one (symbol, interval) */
type CandleListeners = Set<(e: KlineEvent) => void>;

export interface LiveStreamsDeps {
  /** The default environment's (testnet's) streams: the pages' market pushes and the users' account streams */
  streams: ExchangeStreams;
  /**
   * Market streams of another environment, for the server's own consumers of its closed candles (a bot trading on
   * mainnet); undefined when this server has no live streams there
   */
  marketStreamOf?(environment: TradingEnvironment): ExchangeStreams['marketStream'] | undefined;
  publish(target: PushTarget, event: LiveEvent, options?: PublishOptions): Promise<void>;
  /** The user's exchange keys, or undefined when no account is connected */
  keysFor(userId: string): Promise<ExchangeKeys | undefined>;
  /** Symbols of the account's open positions at start (later ones come from the user-data stream) */
  openPositionSymbols(keys: ExchangeKeys): Promise<string[]>;
  /** Market pushes of a socket that did not pick symbols */
  defaultSymbols: readonly string[];
  /**
   * Whether the exchange lists a symbol: only listed symbols get an upstream stream, so a client asking for a
   * made-up one cannot break the shared connection (the simulator refuses unknown streams outright)
   */
  isListed(symbol: string): Promise<boolean>;
  lingerMs?: number;
  log: {
    warn(obj: object, msg: string): void;
    info(obj: object, msg: string): void;
  };
}

interface UserEntry {
  sockets: Set<BusConnection>;
  stream?: UserDataStream;
  /** Symbols with an open position (they are watched by every socket of the user) */
  positions: Set<string>;
  linger?: ReturnType<typeof setTimeout>;
  /** Bumped when the entry is stopped or restarted, so a start still in flight knows it is stale */
  generation: number;
  /** The account stream is connected */
  open: boolean;
  /** Waiters for the user stream's next open */
  openWaiters: Array<() => void>;
}

const positionKey = (symbol: string, side: string) => `${symbol}|${side}`;

/**
 * The producers of the live socket's pushes. For each user with a socket on this instance and a connected exchange
 * account it runs the account's user-data stream; for every symbol a socket here watches it keeps the ticker and
 * mark-price streams on one shared upstream market connection. Upstream streams stop `lingerMs` after the last
 * socket needing them is gone. Every event becomes a `publish` with the exchange event's identity, so the bus
 * (PostgreSQL NOTIFY) fans it out to every instance and drops the copies other instances publish of it.
 */
export class LiveStreams implements BusObserver {
  readonly #users = new Map<string, UserEntry>();
  /** Sockets per watched symbol or candle stream (see `parseDemandKey`) */
  readonly #demand = new Map<string, number>();
  /** Forming-candle throttles per `candleKey` */
  readonly #candleThrottle = new Map<string, CandleThrottle>();
  /** Upstream streams no socket needs any more, waiting out the linger, per demand key */
  readonly #lingering = new Map<string, ReturnType<typeof setTimeout>>();
  /** What each socket was counted under in #demand */
  readonly #counted = new Map<BusConnection, ReadonlySet<string>>();
  /** Server-side consumers of closed candles (running bots), per `candleKey` */
  readonly #closedCandleListeners = new Map<string, CandleListeners>();
  /**
   * Closed candles of the other environments (a mainnet bot's), per environment: one upstream connection each,
   * feeding only the server's consumers (never a page's pushes, which are the default environment's)
   */
  readonly #elsewhere = new Map<
    TradingEnvironment,
    { stream: MarketStream; listeners: Map<string, CandleListeners> }
  >();
  #market: MarketStream | undefined;
  readonly #linger: number;
  #closed = false;
  #published = 0;

  constructor(private readonly deps: LiveStreamsDeps) {
    this.#linger = deps.lingerMs ?? STREAM_LINGER_MS;
  }

  /** Symbols with an upstream ticker/mark-price stream right now */
  get marketSymbols(): string[] {
    return [
      ...new Set((this.#market?.topics ?? []).filter((t) => t.kind !== 'kline').map((t) => t.symbol)),
    ].sort();
  }

  /** Upstream candle streams right now, as `SYMBOL@interval` */
  get candleStreams(): string[] {
    return (this.#market?.topics ?? [])
      .filter((t) => t.kind === 'kline')
      .map((t) => `${t.symbol}@${t.interval}`)
      .sort();
  }

  /**
   * A consumer inside the server (a running bot) of one (symbol, interval)'s closed candles of an environment (the
   * bot's: testnet's and mainnet's candles differ). On the default environment it is counted like a socket's
   * demand, so every bot and socket watching the pair shares one upstream kline stream (which lingers like a
   * socket's); another environment's pairs share one connection of that environment. The returned function stops it
   */
  watchClosedCandles(
    symbol: string,
    interval: string,
    listener: (e: KlineEvent) => void,
    environment: TradingEnvironment = 'testnet',
  ): () => void {
    if (environment !== 'testnet') return this.#watchElsewhere(environment, symbol, interval, listener);
    const key = candleKey(symbol, interval);
    let listeners = this.#closedCandleListeners.get(key);
    if (!listeners) {
      listeners = new Set();
      this.#closedCandleListeners.set(key, listeners);
    }
    listeners.add(listener);
    this.#demandUp(key);
    return () => {
      if (!listeners.delete(listener)) return;
      if (listeners.size === 0) this.#closedCandleListeners.delete(key);
      this.#demandDown(key);
    };
  }

  #watchElsewhere(
    environment: TradingEnvironment,
    symbol: string,
    interval: string,
    listener: (e: KlineEvent) => void,
  ): () => void {
    let entry = this.#elsewhere.get(environment);
    if (!entry) {
      const open = this.deps.marketStreamOf?.(environment);
      if (!open) throw new Error(`the ${environment} exchange has no live market data on this server`);
      const listeners = new Map<string, CandleListeners>();
      const stream = open({
        onEvent: (e) => {
          if (e.type !== 'kline' || !e.closed) return;
          this.#tell(listeners.get(candleKey(e.symbol, e.interval)), e);
        },
        onError: (err) =>
          this.deps.log.warn({ err: err.message, environment }, 'live streams: market stream trouble'),
      });
      entry = { stream, listeners };
      this.#elsewhere.set(environment, entry);
    }
    const { stream, listeners } = entry;
    const key = candleKey(symbol, interval);
    const topic = { symbol, kind: 'kline' as const, interval };
    let set = listeners.get(key);
    if (!set) {
      set = new Set();
      listeners.set(key, set);
      stream.add([topic]);
    }
    set.add(listener);
    const watching = set;
    return () => {
      if (!watching.delete(listener) || watching.size > 0) return;
      listeners.delete(key);
      stream.remove([topic]);
      if (listeners.size === 0 && this.#elsewhere.get(environment)?.stream === stream) {
        this.#elsewhere.delete(environment);
        void stream.close();
      }
    };
  }

  #tell(listeners: CandleListeners | undefined, e: KlineEvent): void {
    for (const listener of listeners ?? []) {
      try {
        listener(e);
      } catch (err) {
        this.deps.log.warn({ err }, 'live streams: a closed-candle consumer failed');
      }
    }
  }

  /** Which of these symbols the exchange does not list (a failed check counts as listed: the stream just stays quiet) */
  async unlisted(symbols: readonly string[]): Promise<string[]> {
    const listed = await Promise.all(symbols.map((s) => this.deps.isListed(s).catch(() => true)));
    return symbols.filter((_, i) => !listed[i]);
  }

  /** Pushes this instance has published (NOTIFY committed) since start */
  get publishedCount(): number {
    return this.#published;
  }

  /** Users with a running user-data stream */
  get streamingUsers(): string[] {
    return [...this.#users].filter(([, u]) => u.stream).map(([id]) => id);
  }

  added(connection: BusConnection): void {
    if (this.#closed) return;
    let user = this.#users.get(connection.userId);
    if (!user) {
      user = { sockets: new Set(), positions: new Set(), generation: 0, open: false, openWaiters: [] };
      this.#users.set(connection.userId, user);
      void this.#startUser(connection.userId, user);
    }
    if (user.linger) clearTimeout(user.linger);
    user.linger = undefined;
    user.sockets.add(connection);
    this.#rewatch(connection, user);
  }

  removed(connection: BusConnection): void {
    this.#count(connection, new Set());
    this.#counted.delete(connection);
    const user = this.#users.get(connection.userId);
    if (!user) return;
    user.sockets.delete(connection);
    if (user.sockets.size > 0 || user.linger) return;
    user.linger = setTimeout(() => {
      user.linger = undefined;
      if (user.sockets.size === 0) void this.#stopUser(connection.userId, user);
    }, this.#linger);
  }

  changed(connection: BusConnection): void {
    const user = this.#users.get(connection.userId);
    if (user) this.#rewatch(connection, user);
  }

  /**
   * Resolves once the user's account stream is open (at once if it is): from then on the user's orders, balances
   * and positions are pushed. Events between a page's first fetch and this moment are covered by that fetch
   */
  whenUserStreamOpen(userId: string): Promise<void> {
    const user = this.#users.get(userId);
    if (!user) return Promise.reject(new Error(`no socket of user ${userId} on this instance`));
    if (user.open) return Promise.resolve();
    return new Promise((resolve) => user.openWaiters.push(resolve));
  }

  /** The user's exchange account changed (connected, replaced, removed): restart their stream if they are here */
  async refreshUser(userId: string): Promise<void> {
    const user = this.#users.get(userId);
    if (!user || this.#closed) return;
    await this.#stopStream(user);
    user.positions.clear();
    for (const c of user.sockets) this.#rewatch(c, user);
    await this.#startUser(userId, user);
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const t of this.#lingering.values()) clearTimeout(t);
    this.#lingering.clear();
    for (const t of this.#candleThrottle.values()) clearTimeout(t.timer);
    this.#candleThrottle.clear();
    await Promise.all(
      [...this.#users.values()].map((u) => {
        if (u.linger) clearTimeout(u.linger);
        return this.#stopStream(u);
      }),
    );
    this.#users.clear();
    await this.#market?.close();
    this.#market = undefined;
    const elsewhere = [...this.#elsewhere.values()];
    this.#elsewhere.clear();
    await Promise.all(elsewhere.map((e) => e.stream.close()));
  }

  // ---- users ---------------------------------------------------------------------------------------------------

  async #startUser(userId: string, user: UserEntry): Promise<void> {
    const generation = ++user.generation;
    let keys: ExchangeKeys | undefined;
    try {
      keys = await this.deps.keysFor(userId);
    } catch (err) {
      this.deps.log.warn({ err, userId }, 'live streams: could not read the user’s exchange keys');
      return;
    }
    if (!keys || user.generation !== generation || this.#closed) return;
    try {
      for (const s of await this.deps.openPositionSymbols(keys)) user.positions.add(s);
      for (const c of user.sockets) this.#rewatch(c, user);
    } catch (err) {
      // Positions opened later still arrive on the stream; the ones before are missed until the next restart
      this.deps.log.warn({ err, userId }, 'live streams: could not read open positions');
    }
    if (user.generation !== generation || this.#closed) return;
    const amounts = new Map<string, string>();
    user.stream = this.deps.streams.userDataStream(
      keys,
      {
        onEvent: (event) => {
          if (event.type === 'order') this.#publishOrder(userId, event);
          else if (event.type === 'algoOrder') this.#publishAlgoOrder(userId, event);
          else this.#account(userId, user, amounts, event);
        },
        onState: (state, { gap }) => {
          user.open = state === 'open';
          if (state !== 'open') return;
          if (gap) this.#resync(userId);
          for (const resolve of user.openWaiters.splice(0)) resolve();
        },
        onError: (err) =>
          this.deps.log.warn({ err: err.message, userId }, 'live streams: user stream trouble'),
      },
      // The listenKey belongs to the account, which other instances and bots may be streaming too
      { closeListenKey: false },
    );
  }

  async #stopStream(user: UserEntry): Promise<void> {
    user.generation += 1;
    user.open = false;
    const stream = user.stream;
    user.stream = undefined;
    await stream?.close();
  }

  async #stopUser(userId: string, user: UserEntry): Promise<void> {
    this.#users.delete(userId);
    await this.#stopStream(user);
  }

  #publish(target: PushTarget, event: LiveEvent, id: string): void {
    this.deps.publish(target, event, { id }).then(
      () => {
        this.#published += 1;
      },
      (err: unknown) => {
        this.deps.log.warn({ err, kind: event.kind }, 'live streams: push not published');
      },
    );
  }

  #publishOrder(userId: string, o: OrderUpdateEvent): void {
    this.#publish(
      userId,
      {
        kind: 'order',
        data: {
          symbol: o.symbol,
          orderId: o.orderId,
          clientOrderId: o.clientOrderId,
          status: o.status,
          executionType: o.executionType,
          side: o.side,
          type: o.orderType,
          price: o.price,
          averagePrice: o.averagePrice,
          quantity: o.quantity,
          executedQuantity: o.executedQuantity,
          time: o.time,
        },
      },
      `order:${o.orderId}:${o.executionType}:${o.executedQuantity}:${o.time}`,
    );
  }

  /** Conditional orders are orders to the pages too: the notice says `algo: true` and carries the algo id */
  #publishAlgoOrder(userId: string, a: AlgoOrderUpdateEvent): void {
    this.#publish(
      userId,
      {
        kind: 'order',
        data: {
          symbol: a.symbol,
          orderId: a.algoId,
          clientOrderId: a.clientAlgoId,
          status: a.status,
          algo: true,
          side: a.side,
          type: a.orderType,
          triggerPrice: a.triggerPrice,
          quantity: a.quantity,
          ...(a.triggeredOrderId ? { triggeredOrderId: a.triggeredOrderId } : {}),
          time: a.time,
        },
      },
      `algo:${a.algoId}:${a.status}:${a.time}`,
    );
  }

  #account(userId: string, user: UserEntry, amounts: Map<string, string>, a: AccountUpdateEvent): void {
    for (const b of a.balances) {
      this.#publish(
        userId,
        {
          kind: 'balance',
          data: {
            asset: b.asset,
            walletBalance: b.walletBalance,
            crossWalletBalance: b.crossWalletBalance,
            reason: a.reason,
            time: a.time,
          },
        },
        `balance:${b.asset}:${a.reason}:${a.time}`,
      );
    }
    let watchChanged = false;
    for (const p of a.positions) {
      amounts.set(positionKey(p.symbol, p.positionSide), p.amount);
      const open = [...amounts].some(([k, amt]) => k.startsWith(`${p.symbol}|`) && Number(amt) !== 0);
      if (open !== user.positions.has(p.symbol)) {
        if (open) user.positions.add(p.symbol);
        else user.positions.delete(p.symbol);
        watchChanged = true;
      }
      this.#publish(
        userId,
        {
          kind: 'position',
          data: {
            symbol: p.symbol,
            positionSide: p.positionSide,
            amount: p.amount,
            entryPrice: p.entryPrice,
            reason: a.reason,
            time: a.time,
          },
        },
        `position:${p.symbol}:${p.positionSide}:${a.reason}:${a.time}`,
      );
    }
    if (watchChanged) for (const c of user.sockets) this.#rewatch(c, user);
  }

  /** Events may have been missed while the stream was down: tell the pages to refetch the account */
  #resync(userId: string): void {
    const time = Date.now();
    this.#publish(
      userId,
      { kind: 'balance', data: { asset: RESYNC_WILDCARD, reason: 'RESYNC', time } },
      `resync-balance:${time}`,
    );
    this.#publish(
      userId,
      { kind: 'position', data: { symbol: RESYNC_WILDCARD, reason: 'RESYNC', time } },
      `resync-position:${time}`,
    );
  }

  // ---- market --------------------------------------------------------------------------------------------------

  /**
   * Recomputes what a socket watches: its own list (or the default one) plus its user's open positions, and the
   * candle streams it asked for
   */
  #rewatch(connection: BusConnection, user: UserEntry): void {
    const wanted = new Set([...(connection.symbols ?? this.deps.defaultSymbols), ...user.positions]);
    connection.watch = wanted;
    this.#count(connection, new Set([...wanted, ...connection.candles]));
  }

  #count(connection: BusConnection, wanted: ReadonlySet<string>): void {
    const before = this.#counted.get(connection) ?? new Set<string>();
    for (const s of wanted) if (!before.has(s)) this.#demandUp(s);
    for (const s of before) if (!wanted.has(s)) this.#demandDown(s);
    this.#counted.set(connection, wanted);
  }

  #topics(key: string): MarketTopic[] {
    const { symbol, interval } = parseDemandKey(key);
    if (interval) return [{ symbol, kind: 'kline', interval }];
    return MARKET_KINDS.map((kind) => ({ symbol, kind }));
  }

  #demandUp(key: string): void {
    const n = (this.#demand.get(key) ?? 0) + 1;
    this.#demand.set(key, n);
    const pending = this.#lingering.get(key);
    if (pending) {
      clearTimeout(pending);
      this.#lingering.delete(key);
      return;
    }
    if (n === 1 && !this.#closed) void this.#startMarket(key);
  }

  async #startMarket(key: string): Promise<void> {
    const { symbol } = parseDemandKey(key);
    let listed: boolean;
    try {
      listed = await this.deps.isListed(symbol);
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
    this.#market ??= this.deps.streams.marketStream({
      onEvent: (e) => this.#marketEvent(e),
      onError: (err) => this.deps.log.warn({ err: err.message }, 'live streams: market stream trouble'),
    });
    this.#market.add(this.#topics(key));
  }

  #demandDown(key: string): void {
    const n = (this.#demand.get(key) ?? 0) - 1;
    if (n > 0) {
      this.#demand.set(key, n);
      return;
    }
    this.#demand.delete(key);
    this.#lingering.set(
      key,
      setTimeout(() => {
        this.#lingering.delete(key);
        this.#market?.remove(this.#topics(key));
        const throttle = this.#candleThrottle.get(key);
        clearTimeout(throttle?.timer);
        this.#candleThrottle.delete(key);
        if (this.#market && this.#market.topics.length === 0) {
          void this.#market.close();
          this.#market = undefined;
        }
      }, this.#linger),
    );
  }

  #marketEvent(e: MarketEvent): void {
    if (e.type === 'ticker') {
      this.#publish(
        { symbol: e.symbol },
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
        `ticker:${e.symbol}:${e.time}`,
      );
    } else if (e.type === 'markPrice') {
      this.#publish(
        { symbol: e.symbol },
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
        `markPrice:${e.symbol}:${e.time}`,
      );
    } else if (e.type === 'kline') {
      if (e.closed) this.#tell(this.#closedCandleListeners.get(candleKey(e.symbol, e.interval)), e);
      this.#candle(e);
    }
  }

  /**
   * A forming candle goes out at most every `CANDLE_PUSH_MIN_MS` (the latest figures, sent when the wait is over);
   * a closing candle goes out at once and replaces a held-back update of the same bar
   */
  #candle(e: KlineEvent): void {
    const key = candleKey(e.symbol, e.interval);
    if (!this.#demand.has(key) && !this.#lingering.has(key)) return;
    let throttle = this.#candleThrottle.get(key);
    if (!throttle) {
      throttle = { lastAt: Number.NEGATIVE_INFINITY };
      this.#candleThrottle.set(key, throttle);
    }
    const now = Date.now();
    if (e.closed) {
      if (throttle.pending?.kline.openTime === e.kline.openTime) {
        clearTimeout(throttle.timer);
        throttle.timer = undefined;
        throttle.pending = undefined;
      }
      this.#publishCandle(e);
      return;
    }
    if (throttle.timer) {
      throttle.pending = e;
      return;
    }
    const wait = throttle.lastAt + CANDLE_PUSH_MIN_MS - now;
    if (wait <= 0) {
      throttle.lastAt = now;
      this.#publishCandle(e);
      return;
    }
    const t = throttle;
    t.pending = e;
    t.timer = setTimeout(() => {
      t.timer = undefined;
      const held = t.pending;
      t.pending = undefined;
      if (!held || this.#closed) return;
      t.lastAt = Date.now();
      this.#publishCandle(held);
    }, wait);
  }

  #publishCandle(e: KlineEvent): void {
    const k = e.kline;
    this.#publish(
      { symbol: e.symbol, interval: e.interval },
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
      `candle:${e.symbol}:${e.interval}:${k.openTime}:${e.closed ? 'closed' : e.time}`,
    );
  }
}
