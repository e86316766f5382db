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

/**
 * A demand key: an environment's symbol (ticker and mark price) or `candleKey` (one kline stream). Testnet's and
 * mainnet's markets are apart: a socket of a user on mainnet watches mainnet's prices
 */
function demandKey(environment: TradingEnvironment, what: string): string {
  return `${environment}/${what}`;
}

/** What a demand key names */
function parseDemandKey(key: string): { environment: TradingEnvironment; symbol: string; interval?: string } {
  const slash = key.indexOf('/');
  const environment: TradingEnvironment = key.slice(0, slash) === 'mainnet' ? 'mainnet' : 'testnet';
  const [symbol = '', interval] = key.slice(slash + 1).split('|');
  return interval ? { environment, symbol, interval } : { environment, symbol };
}

/** The default environment: its pushes carry no environment and its event ids no prefix (as before environments) */
const DEFAULT_ENVIRONMENT: TradingEnvironment = 'testnet';

/** The forming candle pushes of one (symbol, interval): when the last went out, and the latest one held back */
interface CandleThrottle {
  lastAt: number;
  pending?: KlineEvent;
  timer?: ReturnType<typeof setTimeout>;
}

/** Closed-candle consumers of one (symbol, interval) */
type CandleListeners = Set<(e: KlineEvent) => void>;

export interface LiveStreamsDeps {
  /** The users' account streams (routed by the key's environment) and the default environment's market streams */
  streams: ExchangeStreams;
  /**
   * Market streams of another environment than the default one (testnet); undefined when this server has no live
   * streams there
   */
  marketStreamOf?(environment: TradingEnvironment): ExchangeStreams['marketStream'] | undefined;
  /** The user's current environment, for a user without keys (with keys, it is the keys' environment) */
  environmentOf?(userId: string): Promise<TradingEnvironment>;
  publish(target: PushTarget, event: LiveEvent, options?: PublishOptions): Promise<void>;
  /** The user's exchange keys, or undefined when no account is connected */
  keysFor(userId: string): Promise<ExchangeKeys | undefined>;
  /** Symbols of the account's open positions at start (later ones come from the user-data stream) */
  openPositionSymbols(keys: ExchangeKeys): Promise<string[]>;
  /** Market pushes of a socket that did not pick symbols */
  defaultSymbols: readonly string[];
  /**
   * Whether the environment's exchange lists a symbol: only listed symbols get an upstream stream, so a client
   * asking for a made-up one cannot break the shared connection (the simulator refuses unknown streams outright)
   */
  isListed(symbol: string, environment: TradingEnvironment): Promise<boolean>;
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
  /** The user's current environment: their sockets watch its market (testnet until it is known) */
  environment: TradingEnvironment;
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
  /** Forming-candle throttles per demand key of a candle stream */
  readonly #candleThrottle = new Map<string, CandleThrottle>();
  /** Upstream streams no socket needs any more, waiting out the linger, per demand key */
  readonly #lingering = new Map<string, ReturnType<typeof setTimeout>>();
  /** What each socket was counted under in #demand */
  readonly #counted = new Map<BusConnection, ReadonlySet<string>>();
  /** Server-side consumers of closed candles (running bots), per demand key of a candle stream */
  readonly #closedCandleListeners = new Map<string, CandleListeners>();
  /** One upstream market connection per environment with demand */
  readonly #markets = new Map<TradingEnvironment, MarketStream>();
  readonly #linger: number;
  #closed = false;
  #published = 0;

  constructor(private readonly deps: LiveStreamsDeps) {
    this.#linger = deps.lingerMs ?? STREAM_LINGER_MS;
  }

  /** Symbols with an upstream ticker/mark-price stream right now (the default environment's; `marketSymbolsOf`) */
  get marketSymbols(): string[] {
    return this.marketSymbolsOf(DEFAULT_ENVIRONMENT);
  }

  marketSymbolsOf(environment: TradingEnvironment): string[] {
    const topics = this.#markets.get(environment)?.topics ?? [];
    return [...new Set(topics.filter((t) => t.kind !== 'kline').map((t) => t.symbol))].sort();
  }

  /** Upstream candle streams right now, as `SYMBOL@interval` (the default environment's; `candleStreamsOf`) */
  get candleStreams(): string[] {
    return this.candleStreamsOf(DEFAULT_ENVIRONMENT);
  }

  candleStreamsOf(environment: TradingEnvironment): string[] {
    return (this.#markets.get(environment)?.topics ?? [])
      .filter((t) => t.kind === 'kline')
      .map((t) => `${t.symbol}@${t.interval}`)
      .sort();
  }

  /**
   * A consumer inside the server (a running bot) of one (symbol, interval)'s closed candles of an environment (the
   * bot's: testnet's and mainnet's candles differ). Counted like a socket's demand, so every bot and socket
   * watching the pair in that environment shares one upstream kline stream; the returned function stops it (the
   * stream lingers like a socket's)
   */
  watchClosedCandles(
    symbol: string,
    interval: string,
    listener: (e: KlineEvent) => void,
    environment: TradingEnvironment = DEFAULT_ENVIRONMENT,
  ): () => void {
    const key = demandKey(environment, candleKey(symbol, interval));
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

  #tell(listeners: CandleListeners | undefined, e: KlineEvent): void {
    for (const listener of listeners ?? []) {
      try {
        listener(e);
      } catch (err) {
        this.deps.log.warn({ err }, 'live streams: a closed-candle consumer failed');
      }
    }
  }

  /**
   * Which of these symbols the environment's exchange does not list (a failed check counts as listed: the stream
   * just stays quiet)
   */
  async unlisted(
    symbols: readonly string[],
    environment: TradingEnvironment = DEFAULT_ENVIRONMENT,
  ): Promise<string[]> {
    const listed = await Promise.all(
      symbols.map((s) => this.deps.isListed(s, environment).catch(() => true)),
    );
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
      user = {
        sockets: new Set(),
        positions: new Set(),
        generation: 0,
        open: false,
        openWaiters: [],
        environment: DEFAULT_ENVIRONMENT,
      };
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
    const markets = [...this.#markets.values()];
    this.#markets.clear();
    await Promise.all(markets.map((m) => m.close()));
  }

  // ---- users ---------------------------------------------------------------------------------------------------

  async #startUser(userId: string, user: UserEntry): Promise<void> {
    const generation = ++user.generation;
    let keys: ExchangeKeys | undefined;
    let environment: TradingEnvironment;
    try {
      keys = await this.deps.keysFor(userId);
      environment = keys?.environment ?? (await this.deps.environmentOf?.(userId)) ?? DEFAULT_ENVIRONMENT;
    } catch (err) {
      this.deps.log.warn({ err, userId }, 'live streams: could not read the user’s exchange keys');
      return;
    }
    if (user.generation !== generation || this.#closed) return;
    if (environment !== user.environment) {
      // The user's sockets move to their environment's market
      user.environment = environment;
      for (const c of user.sockets) this.#rewatch(c, user);
    }
    if (!keys) return;
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
    connection.environment = user.environment;
    const keys = [...wanted, ...connection.candles].map((k) => demandKey(user.environment, k));
    this.#count(connection, new Set(keys));
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

  /** The environment's upstream market connection, opened on first use; undefined when it has none */
  #marketOf(environment: TradingEnvironment): MarketStream | undefined {
    let market = this.#markets.get(environment);
    if (market) return market;
    const open =
      environment === DEFAULT_ENVIRONMENT
        ? (handlers: Parameters<ExchangeStreams['marketStream']>[0]) =>
            this.deps.streams.marketStream(handlers)
        : this.deps.marketStreamOf?.(environment);
    if (!open) return undefined;
    market = open({
      onEvent: (e) => this.#marketEvent(environment, e),
      onError: (err) =>
        this.deps.log.warn({ err: err.message, environment }, 'live streams: market stream trouble'),
    });
    this.#markets.set(environment, market);
    return market;
  }

  async #startMarket(key: string): Promise<void> {
    const { environment, symbol } = parseDemandKey(key);
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
    market.add(this.#topics(key));
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
        const { environment } = parseDemandKey(key);
        const market = this.#markets.get(environment);
        market?.remove(this.#topics(key));
        const throttle = this.#candleThrottle.get(key);
        clearTimeout(throttle?.timer);
        this.#candleThrottle.delete(key);
        if (market && market.topics.length === 0) {
          void market.close();
          this.#markets.delete(environment);
        }
      }, this.#linger),
    );
  }

  /**
   * Where a market push of an environment goes: the sockets watching the symbol in that environment. The default
   * environment's pushes name none (the bus reads none as it), and their ids keep their old form
   */
  #marketTarget(
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

  #marketId(environment: TradingEnvironment, id: string): string {
    return environment === DEFAULT_ENVIRONMENT ? id : `${environment}:${id}`;
  }

  #marketEvent(environment: TradingEnvironment, e: MarketEvent): void {
    if (e.type === 'ticker') {
      this.#publish(
        this.#marketTarget(environment, e.symbol),
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
        this.#marketId(environment, `ticker:${e.symbol}:${e.time}`),
      );
    } else if (e.type === 'markPrice') {
      this.#publish(
        this.#marketTarget(environment, e.symbol),
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
        this.#marketId(environment, `markPrice:${e.symbol}:${e.time}`),
      );
    } else if (e.type === 'kline') {
      const key = demandKey(environment, candleKey(e.symbol, e.interval));
      if (e.closed) this.#tell(this.#closedCandleListeners.get(key), e);
      this.#candle(environment, key, e);
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
    const now = Date.now();
    if (e.closed) {
      if (throttle.pending?.kline.openTime === e.kline.openTime) {
        clearTimeout(throttle.timer);
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
    t.timer = setTimeout(() => {
      t.timer = undefined;
      const held = t.pending;
      t.pending = undefined;
      if (!held || this.#closed) return;
      t.lastAt = Date.now();
      this.#publishCandle(environment, held);
    }, wait);
  }

  #publishCandle(environment: TradingEnvironment, e: KlineEvent): void {
    const k = e.kline;
    this.#publish(
      this.#marketTarget(environment, e.symbol, e.interval),
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
      this.#marketId(
        environment,
        `candle:${e.symbol}:${e.interval}:${k.openTime}:${e.closed ? 'closed' : e.time}`,
      ),
    );
  }
}
