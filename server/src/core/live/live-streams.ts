import type { TradingEnvironment } from '@kestrel/contracts';
import type { Clock, Timer } from '../../lib/clock';
import type { TradingAccount } from '../environment/trading-account';
import type { ExchangeKeys, OrderBookSnapshot } from '../exchange/exchange-adapter';
import type { ExchangeStreams, KlineEvent, UserDataStream } from '../exchange/exchange-streams';
import type { BusConnection, BusObserver, LiveEvent, PublishOptions, PushTarget } from '../socket/socket-bus';
import { type AccountPush, accountPushes, algoOrderPush, orderPush, resyncPushes } from './account-pushes';
import type { BookFeeds } from './book-feeds';
import { bookKey, DEFAULT_ENVIRONMENT, demandKey, MarketFeeds } from './market-feeds';

export { CANDLE_PUSH_MIN_MS } from './market-feeds';

/** How long an upstream stream outlives its last socket: a page reload or a quick reconnect reuses it */
export const STREAM_LINGER_MS = 30_000;

export interface LiveStreamsDeps {
  /** The users' account streams (routed by the key's environment) and the default environment's market streams */
  streams: ExchangeStreams;
  /**
   * Market streams of another environment than the default one (testnet); undefined when this server has no live
   * streams there
   */
  marketStreamOf?(environment: TradingEnvironment): ExchangeStreams['marketStream'] | undefined;
  /**
   * The user's current environment: read once each time the user's stream (re)starts, it is the account whose keys
   * are opened and whose market the user's sockets watch
   */
  environmentOf(userId: string): Promise<TradingEnvironment>;
  publish(target: PushTarget, event: LiveEvent, options?: PublishOptions): Promise<void>;
  /** The account's exchange keys, or undefined when none are stored there */
  keysFor(account: TradingAccount): Promise<ExchangeKeys | undefined>;
  /** Symbols of the account's open positions at start (later ones come from the user-data stream) */
  openPositionSymbols(keys: ExchangeKeys): Promise<string[]>;
  /** Market pushes of a socket that did not pick symbols */
  defaultSymbols: readonly string[];
  /**
   * Whether the environment's exchange lists a symbol: only listed symbols get an upstream stream, so a client
   * asking for a made-up one cannot break the shared connection (the simulator refuses unknown streams outright)
   */
  isListed(symbol: string, environment: TradingEnvironment): Promise<boolean>;
  /** The REST order book of a symbol, for syncing the books sockets watch */
  depthSnapshot(environment: TradingEnvironment, symbol: string, limit: number): Promise<OrderBookSnapshot>;
  lingerMs?: number;
  /** The linger, the candle throttle and the time of a resync push */
  clock: Clock;
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
  linger?: Timer;
  /** Bumped when the entry is stopped or restarted, so a start still in flight knows it is stale */
  generation: number;
  /** The account stream is connected */
  open: boolean;
  /** Waiters for the user stream's next open */
  openWaiters: Array<() => void>;
  /** The user's current environment: their sockets watch its market (testnet until it is known) */
  environment: TradingEnvironment;
}

/**
 * The producers of the live socket's pushes. For each user with a socket on this instance and a connected exchange
 * account it runs the account's user-data stream (`account-pushes.ts` maps its events); for every symbol a socket
 * here watches it keeps the ticker and mark-price streams on one shared upstream market connection
 * (`market-feeds.ts`). Upstream streams stop `lingerMs` after the last socket needing them is gone. Every event
 * becomes a `publish` with the exchange event's identity, so the bus (PostgreSQL NOTIFY) fans it out to every
 * instance and drops the copies other instances publish of it.
 */
export class LiveStreams implements BusObserver {
  readonly #users = new Map<string, UserEntry>();
  /** What each socket was counted under in the market feeds' demand */
  readonly #counted = new Map<BusConnection, ReadonlySet<string>>();
  readonly #feeds: MarketFeeds;
  readonly #linger: number;
  #closed = false;
  #published = 0;

  constructor(private readonly deps: LiveStreamsDeps) {
    this.#linger = deps.lingerMs ?? STREAM_LINGER_MS;
    this.#feeds = new MarketFeeds({
      marketStream: (handlers) => deps.streams.marketStream(handlers),
      ...(deps.marketStreamOf ? { marketStreamOf: (environment) => deps.marketStreamOf?.(environment) } : {}),
      isListed: (symbol, environment) => deps.isListed(symbol, environment),
      depthSnapshot: (environment, symbol, limit) => deps.depthSnapshot(environment, symbol, limit),
      publish: (target, event, id) => this.#publish(target, event, id),
      clock: deps.clock,
      lingerMs: this.#linger,
      log: deps.log,
    });
  }

  /** Symbols with an upstream ticker/mark-price stream right now (the default environment's; `marketSymbolsOf`) */
  get marketSymbols(): string[] {
    return this.marketSymbolsOf(DEFAULT_ENVIRONMENT);
  }

  marketSymbolsOf(environment: TradingEnvironment): string[] {
    return this.#feeds.symbolsOf(environment);
  }

  /** The order books and trades tapes kept for the sockets watching them (see `book-feeds.ts`) */
  get books(): BookFeeds {
    return this.#feeds.books;
  }

  /** Symbols whose order book is streamed upstream now, in an environment */
  bookSymbolsOf(environment: TradingEnvironment): string[] {
    return this.#feeds.bookSymbolsOf(environment);
  }

  /** Upstream candle streams right now, as `SYMBOL@interval` (the default environment's; `candleStreamsOf`) */
  get candleStreams(): string[] {
    return this.candleStreamsOf(DEFAULT_ENVIRONMENT);
  }

  candleStreamsOf(environment: TradingEnvironment): string[] {
    return this.#feeds.candleStreamsOf(environment);
  }

  /**
   * A consumer inside the server (a running bot) of one (symbol, interval)'s candles of an environment (the bot's:
   * testnet's and mainnet's candles differ): every update as the exchange streams it (a forming candle about four
   * times a second, its last price the market's; then the closed one, `closed`), unthrottled. Counted like a
   * socket's demand, so every bot and socket watching the pair in that environment shares one upstream kline
   * stream; the returned function stops it (the stream lingers like a socket's)
   */
  watchCandles(
    symbol: string,
    interval: string,
    listener: (e: KlineEvent) => void,
    environment: TradingEnvironment = DEFAULT_ENVIRONMENT,
  ): () => void {
    return this.#feeds.watchCandles(symbol, interval, listener, environment);
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
    user.linger?.cancel();
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
    user.linger = this.deps.clock.after(this.#linger, () => {
      user.linger = undefined;
      if (user.sockets.size === 0) void this.#stopUser(connection.userId, user);
    });
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
    const feedsClosed = this.#feeds.close();
    await Promise.all(
      [...this.#users.values()].map((u) => {
        u.linger?.cancel();
        return this.#stopStream(u);
      }),
    );
    this.#users.clear();
    await feedsClosed;
  }

  // ---- users ---------------------------------------------------------------------------------------------------

  async #startUser(userId: string, user: UserEntry): Promise<void> {
    const generation = ++user.generation;
    let keys: ExchangeKeys | undefined;
    let environment: TradingEnvironment;
    try {
      environment = await this.deps.environmentOf(userId);
      keys = await this.deps.keysFor({ userId, environment });
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
    const send = (pushes: readonly AccountPush[]) => {
      for (const p of pushes) this.#publish(userId, p.event, p.id);
    };
    user.stream = this.deps.streams.userDataStream(
      keys,
      {
        onEvent: (event) => {
          if (event.type === 'order') send([orderPush(event)]);
          else if (event.type === 'algoOrder') send([algoOrderPush(event)]);
          else {
            const { pushes, watchChanged } = accountPushes(event, amounts, user.positions);
            send(pushes);
            if (watchChanged) for (const c of user.sockets) this.#rewatch(c, user);
          }
        },
        onState: (state, { gap }) => {
          user.open = state === 'open';
          if (state !== 'open') return;
          if (gap) send(resyncPushes(this.deps.clock.now().getTime()));
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

  // ---- what the sockets watch ----------------------------------------------------------------------------------

  /**
   * Recomputes what a socket watches: its own list (or the default one) plus its user's open positions, and the
   * candle streams it asked for
   */
  #rewatch(connection: BusConnection, user: UserEntry): void {
    const wanted = new Set([...(connection.symbols ?? this.deps.defaultSymbols), ...user.positions]);
    connection.watch = wanted;
    connection.environment = user.environment;
    const keys = [...wanted, ...connection.candles, ...[...connection.books].map(bookKey)].map((k) =>
      demandKey(user.environment, k),
    );
    this.#count(connection, new Set(keys));
  }

  #count(connection: BusConnection, wanted: ReadonlySet<string>): void {
    const before = this.#counted.get(connection) ?? new Set<string>();
    for (const s of wanted) if (!before.has(s)) this.#feeds.up(s);
    for (const s of before) if (!wanted.has(s)) this.#feeds.down(s);
    this.#counted.set(connection, wanted);
  }
}
