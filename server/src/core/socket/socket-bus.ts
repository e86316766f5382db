import {
  LIVE_EVENT_METHODS,
  LIVE_EVENT_SCHEMAS,
  type LiveEventKind,
  type LiveEventNotice,
  SOCKET_STREAMS,
  type TradingEnvironment,
} from '@kestrel/contracts';
import type { Clock } from '../../lib/clock';
import type { Database } from '../../lib/database/database';
import { PgFanout } from './pg-fanout';

// The contract's stream names must be exactly the push kinds; this line stops compiling if they drift
const STREAM_KINDS: readonly LiveEventKind[] = SOCKET_STREAMS;

/** One push: its kind and the notice the contract describes for that kind */
export type LiveEvent = { [K in LiveEventKind]: { kind: K; data: LiveEventNotice[K] } }[LiveEventKind];

/**
 * Where a push goes: one user's sockets, every socket, the sockets watching a symbol (ticker, mark price), or the
 * sockets watching a symbol's candles of one interval
 */
export type PushTarget =
  | string
  | 'all'
  /**
   * Market pushes: the sockets watching the symbol (and interval) in that environment (testnet when absent);
   * `book`: the sockets watching the symbol's order book and trades
   */
  | { symbol: string; interval?: string; book?: true; environment?: TradingEnvironment };

/** How a (symbol, interval) candle stream is named in `BusConnection.candles` */
export function candleKey(symbol: string, interval: string): string {
  return `${symbol}|${interval}`;
}

/** A socket as the bus sees it; `streams` is what the client subscribed to (all until it says otherwise) */
export interface BusConnection {
  readonly userId: string;
  /** The sign-in session the socket's token belongs to (empty while the token is being checked) */
  sessionId: string;
  /** Closes the socket with an application close code */
  end(code: number, reason: string): void;
  streams: ReadonlySet<LiveEventKind>;
  /** Symbols the client asked market pushes for (`streams/subscribe`); undefined: the server's default list */
  symbols: ReadonlySet<string> | undefined;
  /** Symbols whose market pushes this socket receives, kept by the live-streams service */
  watch: ReadonlySet<string>;
  /** Candle streams the client asked for (`candleKey(symbol, interval)`); none until it subscribes to some */
  candles: ReadonlySet<string>;
  /** Symbols whose order book and trades the client asked for; none until it subscribes to some */
  books: ReadonlySet<string>;
  /**
   * Whose market the socket's market pushes come from: its user's current environment, kept by the live-streams
   * service (testnet when unset)
   */
  environment?: TradingEnvironment;
  /** Sends one text frame; false when the socket cannot take it (closed or too far behind) */
  send(frame: string): boolean;
}

/** Told when sockets come, go or change their subscription (the live-streams service follows demand with it) */
export interface BusObserver {
  added(connection: BusConnection): void;
  removed(connection: BusConnection): void;
  changed(connection: BusConnection): void;
}

export interface PublishOptions {
  /**
   * Identity of the event: a push with an id already delivered in the last minute is dropped. Several server
   * instances may each follow the same exchange stream and publish the same event; each socket gets it once
   */
  id?: string;
}

/** Ids of recently delivered pushes, forgotten after `ttlMs` or when more than `max` are held */
export class RecentIds {
  private readonly seen = new Map<string, number>();
  constructor(
    private readonly now: () => number,
    private readonly ttlMs = 60_000,
    private readonly max = 20_000,
  ) {}

  /** True the first time an id is seen within the window */
  firstTime(id: string): boolean {
    const now = this.now();
    // Insertion order is age order: drop the expired head, and the oldest beyond the cap
    for (const [key, at] of this.seen) {
      if (now - at < this.ttlMs && this.seen.size < this.max) break;
      this.seen.delete(key);
    }
    if (this.seen.has(id)) return false;
    this.seen.set(id, now);
    return true;
  }
}

export class InvalidLiveEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidLiveEventError';
  }
}

export const ALL_STREAMS: ReadonlySet<LiveEventKind> = new Set(STREAM_KINDS);

interface FanoutMessage {
  /** A user id or 'all'; absent for a symbol target */
  t?: string;
  /** Symbol target (market pushes) */
  s?: string;
  /** Interval of a candle push (with `s`) */
  n?: string;
  /** An order book or trades push (with `s`) */
  o?: 1;
  /** Environment of a market push (with `s`); absent: testnet */
  w?: TradingEnvironment;
  /** Event identity, for dropping duplicates */
  i?: string;
  k: LiveEventKind;
  p: unknown;
}

/** A control message: sessions of user `e` ended (logout, revocation), so its sockets are checked now */
interface SessionsEndedMessage {
  e: string;
}

/**
 * Server pushes to live sockets. `publish` goes through PostgreSQL NOTIFY even on a single instance, so one path
 * serves one process or many: every instance listening on the database's channel delivers to its own sockets.
 */
export class SocketBus {
  private readonly byUser = new Map<string, Set<BusConnection>>();
  private readonly fanout: PgFanout;
  private readonly observers = new Set<BusObserver>();
  private readonly recent: RecentIds;
  private readonly announced = new Set<BusConnection>();
  private count = 0;
  /**
   * `sessionCheck`: what to run when any instance reports that sessions of a user ended (the socket plugin checks
   * that user's sockets against their sessions)
   */
  constructor(
    db: Database,
    channel: string,
    clock: Clock,
    private readonly sessionCheck: (userId: string) => void = () => {},
  ) {
    this.recent = new RecentIds(() => clock.now().getTime());
    this.fanout = new PgFanout(db, channel, (message) => this.deliver(message), clock);
  }

  get channel(): string {
    return this.fanout.channel;
  }

  /** Sockets connected to this instance */
  get connectionCount(): number {
    return this.count;
  }

  async start(): Promise<void> {
    await this.fanout.start();
  }

  async close(): Promise<void> {
    await this.fanout.close();
  }

  /** Follows sockets coming, going and changing; returns the function that stops it */
  observe(observer: BusObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Every socket of this instance */
  connections(): BusConnection[] {
    return [...this.byUser.values()].flatMap((set) => [...set]);
  }

  /** Sockets of `userId` on this instance whose token check has passed (the per-user cap counts these) */
  openFor(userId: string): number {
    let n = 0;
    for (const c of this.byUser.get(userId) ?? []) if (c.sessionId !== '') n += 1;
    return n;
  }

  /**
   * Tells every instance that sessions of `userId` ended, so each closes that user's sockets whose session is gone
   * at once, not at the next periodic re-check
   */
  async sessionsEnded(userId: string): Promise<void> {
    const message: SessionsEndedMessage = { e: userId };
    await this.fanout.publish(JSON.stringify(message));
  }

  /** Tells observers a socket changed its streams or symbols */
  changed(connection: BusConnection): void {
    if (this.announced.has(connection)) for (const o of this.observers) o.changed(connection);
  }

  /** The socket's token has been checked: observers hear of it now */
  verified(connection: BusConnection): void {
    if (this.announced.has(connection)) return;
    this.announced.add(connection);
    for (const o of this.observers) o.added(connection);
  }

  /**
   * Registers a socket for delivery; returns the function that removes it. A socket added with
   * `{ verified: false }` (its token is still being checked) gets pushes but observers hear of it only at
   * `verified(connection)`, so nothing starts work for a user before the token is known to be theirs
   */
  add(connection: BusConnection, options: { verified?: boolean } = {}): () => void {
    let set = this.byUser.get(connection.userId);
    if (!set) {
      set = new Set();
      this.byUser.set(connection.userId, set);
    }
    set.add(connection);
    this.count += 1;
    if (options.verified ?? true) this.verified(connection);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.count -= 1;
      const current = this.byUser.get(connection.userId);
      current?.delete(connection);
      if (current?.size === 0) this.byUser.delete(connection.userId);
      if (this.announced.delete(connection)) for (const o of this.observers) o.removed(connection);
    };
  }

  /**
   * Closes the sockets whose session has ended since they connected (logout, revocation, refresh-token reuse,
   * absolute expiry): the token was checked once at connect, and pushes must not outlive the sign-in.
   * `liveSessions` answers which of the given session ids are still live. Returns the number of sockets closed.
   */
  async endSocketsOfEndedSessions(
    liveSessions: (ids: string[]) => Promise<ReadonlySet<string>>,
    code: number,
    reason: string,
    userId?: string,
  ): Promise<number> {
    // Sockets still in their token check have no session yet: that check decides for them
    const candidates = userId === undefined ? this.connections() : [...(this.byUser.get(userId) ?? [])];
    const all = candidates.filter((c) => c.sessionId !== '');
    if (all.length === 0) return 0;
    const live = await liveSessions([...new Set(all.map((c) => c.sessionId))]);
    let ended = 0;
    for (const c of all) {
      if (live.has(c.sessionId)) continue;
      c.end(code, reason);
      ended += 1;
    }
    return ended;
  }

  /**
   * Publishes a push to `target` (a user id, or 'all') on every server instance. The notice is checked against its
   * contract first: a malformed push is a bug in the publisher, reported to it rather than sent to browsers.
   */
  async publish(target: PushTarget, event: LiveEvent, options: PublishOptions = {}): Promise<void> {
    const schema = LIVE_EVENT_SCHEMAS[event.kind];
    if (!schema) throw new InvalidLiveEventError(`Unknown push kind "${String(event.kind)}"`);
    const parsed = schema.safeParse(event.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidLiveEventError(
        `Invalid ${event.kind} push: ${issue?.path.join('.') || 'notice'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const message: FanoutMessage = {
      ...(typeof target === 'string'
        ? { t: target }
        : {
            s: target.symbol,
            ...(target.interval ? { n: target.interval } : {}),
            ...(target.book ? { o: 1 as const } : {}),
            ...(target.environment && target.environment !== 'testnet' ? { w: target.environment } : {}),
          }),
      ...(options.id ? { i: options.id } : {}),
      k: event.kind,
      p: parsed.data,
    };
    await this.fanout.publish(JSON.stringify(message));
  }

  /** Delivers one fan-out message to the matching local sockets; the frame is serialised once for all of them */
  private deliver(raw: string): void {
    let message: FanoutMessage;
    try {
      const parsed = JSON.parse(raw) as FanoutMessage | SessionsEndedMessage;
      if ('e' in parsed) {
        if (typeof parsed.e === 'string') this.sessionCheck(parsed.e);
        return;
      }
      message = parsed;
    } catch {
      return;
    }
    const method = LIVE_EVENT_METHODS[message.k];
    if (!method) return;
    if (message.i !== undefined && !this.recent.firstTime(`${message.t ?? message.s}|${message.i}`)) return;
    const frame = JSON.stringify({ jsonrpc: '2.0', method, params: message.p });
    // A market push reaches only sockets on its environment's market: testnet's prices never reach a mainnet page
    const environment = message.w ?? 'testnet';
    const onMarket = (c: BusConnection) => (c.environment ?? 'testnet') === environment;
    if (message.s !== undefined && message.o === 1) {
      const symbol = message.s;
      for (const set of this.byUser.values())
        for (const c of set)
          if (c.books.has(symbol) && c.streams.has(message.k) && onMarket(c)) c.send(frame);
      return;
    }
    if (message.s !== undefined && message.n !== undefined) {
      const key = candleKey(message.s, message.n);
      for (const set of this.byUser.values())
        for (const c of set) if (c.candles.has(key) && c.streams.has(message.k) && onMarket(c)) c.send(frame);
      return;
    }
    if (message.s !== undefined) {
      const symbol = message.s;
      for (const set of this.byUser.values())
        for (const c of set)
          if (c.watch.has(symbol) && c.streams.has(message.k) && onMarket(c)) c.send(frame);
      return;
    }
    if (message.t === undefined) return;
    if (message.t === 'all') {
      for (const set of this.byUser.values())
        for (const c of set) if (c.streams.has(message.k)) c.send(frame);
      return;
    }
    const set = this.byUser.get(message.t);
    if (set) for (const c of set) if (c.streams.has(message.k)) c.send(frame);
  }
}

/**
 * The NOTIFY channel of a database schema: instances sharing a schema share pushes (and, with prefix
 * `kestrel_backtest`, the backtest queue's wake-ups), other schemas stay apart
 */
export async function channelFor(db: Database, prefix = 'kestrel_socket'): Promise<string> {
  const [row] = await db.query<{ schema: string | null }>('SELECT current_schema() AS schema');
  const schema = (row?.schema ?? 'public').toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return `${prefix}_${schema}`.slice(0, 63);
}
