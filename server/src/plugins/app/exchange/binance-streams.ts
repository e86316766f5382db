import WebSocket from 'ws';
import type { BinanceClient } from './binance-client';
import { ExchangeApiError, type ExchangeKeys, type OrderStatus, type PositionSide } from './exchange-adapter';
import type {
  ExchangeStreams,
  MarketEvent,
  MarketStream,
  MarketTopic,
  StreamHandlers,
  StreamState,
  UserDataEvent,
  UserDataStream,
  UserDataStreamOptions,
} from './exchange-streams';
import { parseJsonBigSafe } from './json-bigint';

type Raw = Record<string, unknown>;

/** Timing of the stream connections; Binance's rules by default, tests shorten them */
export interface BinanceStreamOptions {
  /** First reconnect delay; it doubles on every failed attempt up to `reconnectMaxMs` */
  reconnectInitialMs?: number;
  reconnectMaxMs?: number;
  /** We ping this often; a connection with no pong or message since the previous ping is dropped and reopened */
  heartbeatMs?: number;
  /**
   * Binance cuts every connection after 24 h: we reopen a little before, on our own schedule, and treat the
   * server's cut like any other close if it comes first
   */
  maxConnectionMs?: number;
  /** listenKey keepalive (PUT); Binance expires a key 60 min after the last one */
  keepAliveMs?: number;
  /** Control messages (SUBSCRIBE/UNSUBSCRIBE) per second; Binance allows 10 incoming messages per second */
  controlMessagesPerSecond?: number;
}

const DEFAULTS: Required<BinanceStreamOptions> = {
  reconnectInitialMs: 500,
  reconnectMaxMs: 30_000,
  heartbeatMs: 30_000,
  maxConnectionMs: 23 * 60 * 60_000,
  keepAliveMs: 50 * 60_000,
  controlMessagesPerSecond: 5,
};

/** Streams per SUBSCRIBE message and in a connection URL (Binance allows 1024 per connection) */
const STREAMS_PER_MESSAGE = 100;
/** Binance: "listenKey does not exist" on keepalive */
const LISTEN_KEY_UNKNOWN = -1125;

const str = (v: unknown): string => (v === undefined || v === null ? '0' : String(v));
const num = (v: unknown): number => Number(v ?? 0);

interface SocketCallbacks {
  /** The URL to open; may do I/O first (the user stream creates its listenKey here) */
  url(): Promise<string>;
  onMessage(text: string): void;
  /** Each successful open; `reconnect` is false only for the first */
  onOpen(reconnect: boolean): void;
  onState(state: StreamState, gap: boolean): void;
  onError(error: Error): void;
}

/**
 * One WebSocket that stays open until stopped: reconnects with exponential backoff, drops a connection that
 * stops answering pings, and reopens before Binance's 24 h cut. Binance's own pings get pongs from `ws` itself.
 */
class ResilientSocket {
  #ws: WebSocket | undefined;
  #stopped = true;
  #attempt = 0;
  #opened = false;
  #restartNow = false;
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly options: Required<BinanceStreamOptions>,
    private readonly cb: SocketCallbacks,
  ) {}

  get isOpen(): boolean {
    return this.#ws?.readyState === WebSocket.OPEN;
  }

  get running(): boolean {
    return !this.#stopped;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#attempt = 0;
    this.#opened = false;
    this.cb.onState('connecting', false);
    void this.#connect();
  }

  /** Closes the current connection and opens a new one at once (a new listenKey, the lifetime cut) */
  restart(): void {
    if (this.#stopped) return;
    this.#attempt = 0;
    this.#restartNow = true;
    this.#ws?.terminate();
  }

  send(text: string): boolean {
    if (!this.isOpen) return false;
    this.#ws?.send(text);
    return true;
  }

  stop(): void {
    this.#stopped = true;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    const ws = this.#ws;
    this.#ws = undefined;
    if (ws && ws.readyState !== WebSocket.CLOSED) ws.close(1000, 'closed by client');
    this.cb.onState('closed', false);
  }

  #later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn();
    }, ms);
    this.#timers.add(t);
  }

  #scheduleReconnect(): void {
    if (this.#stopped) return;
    const delay = this.#restartNow
      ? 0
      : Math.min(this.options.reconnectMaxMs, this.options.reconnectInitialMs * 2 ** this.#attempt);
    this.#restartNow = false;
    if (delay > 0) this.#attempt += 1;
    this.cb.onState('reconnecting', this.#opened);
    this.#later(delay, () => void this.#connect());
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    let url: string;
    try {
      url = await this.cb.url();
    } catch (err) {
      this.cb.onError(err as Error);
      this.#scheduleReconnect();
      return;
    }
    if (this.#stopped) return;
    const ws = new WebSocket(url, { handshakeTimeout: 10_000 });
    this.#ws = ws;
    let alive = true;
    ws.on('open', () => {
      if (this.#ws !== ws) return;
      const reconnect = this.#opened;
      this.#opened = true;
      this.#attempt = 0;
      this.cb.onState('open', reconnect);
      this.cb.onOpen(reconnect);
      if (this.#heartbeat) clearInterval(this.#heartbeat);
      this.#heartbeat = setInterval(() => {
        if (!alive) {
          ws.terminate();
          return;
        }
        alive = false;
        ws.ping();
      }, this.options.heartbeatMs);
      this.#later(this.options.maxConnectionMs, () => {
        if (this.#ws === ws) this.restart();
      });
    });
    ws.on('pong', () => {
      alive = true;
    });
    ws.on('message', (data) => {
      alive = true;
      if (this.#ws === ws) this.cb.onMessage(data.toString());
    });
    ws.on('unexpected-response', (_req, res) => {
      this.cb.onError(new Error(`stream refused with HTTP ${res.statusCode}`));
      ws.terminate();
    });
    ws.on('error', (err) => this.cb.onError(err));
    ws.on('close', () => {
      if (this.#ws !== ws) return;
      this.#ws = undefined;
      if (this.#heartbeat) clearInterval(this.#heartbeat);
      this.#heartbeat = undefined;
      this.#scheduleReconnect();
    });
  }
}

function parseFrame(text: string): Raw | undefined {
  try {
    const v = parseJsonBigSafe(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : undefined;
  } catch {
    return undefined;
  }
}

/** Binance's stream name of a topic: lowercase symbol, `@ticker`, `@markPrice@1s`, `@bookTicker`, `@kline_1m` */
export function streamName(topic: MarketTopic): string {
  const s = topic.symbol.toLowerCase();
  switch (topic.kind) {
    case 'ticker':
      return `${s}@ticker`;
    case 'markPrice':
      return `${s}@markPrice@1s`;
    case 'bookTicker':
      return `${s}@bookTicker`;
    case 'kline':
      return `${s}@kline_${topic.interval ?? '1m'}`;
  }
}

/** Binance serves bookTicker (and depth) on /public, the rest on /market */
const routeOf = (topic: MarketTopic): 'public' | 'market' =>
  topic.kind === 'bookTicker' ? 'public' : 'market';

/** A market payload in our terms; undefined for events we do not map */
export function toMarketEvent(d: Raw): MarketEvent | undefined {
  switch (d.e) {
    case '24hrTicker':
      return {
        type: 'ticker',
        symbol: str(d.s),
        lastPrice: str(d.c),
        priceChange: str(d.p),
        priceChangePercent: str(d.P),
        openPrice: str(d.o),
        highPrice: str(d.h),
        lowPrice: str(d.l),
        volume: str(d.v),
        quoteVolume: str(d.q),
        time: num(d.E),
      };
    case 'markPriceUpdate':
      return {
        type: 'markPrice',
        symbol: str(d.s),
        markPrice: str(d.p),
        indexPrice: str(d.i),
        fundingRate: str(d.r),
        nextFundingTime: num(d.T),
        time: num(d.E),
      };
    case 'bookTicker':
      return {
        type: 'bookTicker',
        symbol: str(d.s),
        bidPrice: str(d.b),
        bidQuantity: str(d.B),
        askPrice: str(d.a),
        askQuantity: str(d.A),
        time: num(d.E ?? d.T),
      };
    case 'kline': {
      const k = (d.k ?? {}) as Raw;
      return {
        type: 'kline',
        symbol: str(d.s),
        interval: str(k.i),
        closed: k.x === true,
        time: num(d.E),
        kline: {
          openTime: num(k.t),
          open: str(k.o),
          high: str(k.h),
          low: str(k.l),
          close: str(k.c),
          volume: str(k.v),
          closeTime: num(k.T),
          quoteVolume: str(k.q),
          trades: num(k.n),
        },
      };
    }
    default:
      return undefined;
  }
}

/** A user-data payload in our terms; undefined for events we do not map (ACCOUNT_CONFIG_UPDATE, TRADE_LITE, …) */
export function toUserDataEvent(d: Raw): UserDataEvent | undefined {
  if (d.e === 'ORDER_TRADE_UPDATE') {
    const o = (d.o ?? {}) as Raw;
    return {
      type: 'order',
      symbol: str(o.s),
      orderId: str(o.i),
      clientOrderId: str(o.c),
      side: o.S === 'SELL' ? 'SELL' : 'BUY',
      orderType: str(o.o),
      // Binance says CALCULATED for a liquidation fill
      executionType: o.x === 'CALCULATED' ? 'LIQUIDATION' : str(o.x),
      status: str(o.X) as OrderStatus,
      price: str(o.p),
      averagePrice: str(o.ap),
      quantity: str(o.q),
      executedQuantity: str(o.z),
      lastFilledQuantity: str(o.l),
      lastFilledPrice: str(o.L),
      commission: str(o.n),
      commissionAsset: o.N === undefined || o.N === null ? '' : String(o.N),
      realizedPnl: str(o.rp),
      positionSide: (o.ps as PositionSide | undefined) ?? 'BOTH',
      reduceOnly: o.R === true,
      time: num(o.T ?? d.E),
    };
  }
  if (d.e === 'ALGO_UPDATE') {
    const o = (d.o ?? {}) as Raw;
    const triggered = o.ai === undefined || o.ai === null || o.ai === '' ? undefined : String(o.ai);
    const reason = typeof o.rm === 'string' && o.rm !== '' ? o.rm : undefined;
    return {
      type: 'algoOrder',
      symbol: str(o.s),
      algoId: str(o.aid),
      clientAlgoId: o.caid === undefined || o.caid === null ? '' : String(o.caid),
      orderType: str(o.o),
      side: o.S === 'SELL' ? 'SELL' : 'BUY',
      positionSide: (o.ps as PositionSide | undefined) ?? 'BOTH',
      status: str(o.X),
      triggerPrice: str(o.tp),
      price: str(o.p),
      quantity: str(o.q),
      reduceOnly: o.R === true,
      closePosition: o.cp === true,
      ...(triggered ? { triggeredOrderId: triggered } : {}),
      ...(reason ? { reason } : {}),
      time: num(d.E ?? d.T),
    };
  }
  if (d.e === 'ACCOUNT_UPDATE') {
    const a = (d.a ?? {}) as Raw;
    return {
      type: 'account',
      reason: str(a.m),
      time: num(d.E),
      balances: ((a.B as Raw[] | undefined) ?? []).map((b) => ({
        asset: str(b.a),
        walletBalance: str(b.wb),
        crossWalletBalance: str(b.cw),
        balanceChange: str(b.bc),
      })),
      positions: ((a.P as Raw[] | undefined) ?? []).map((p) => ({
        symbol: str(p.s),
        positionSide: (p.ps as PositionSide | undefined) ?? 'BOTH',
        amount: str(p.pa),
        entryPrice: str(p.ep),
        unrealizedPnl: str(p.up),
        marginType: str(p.mt),
      })),
    };
  }
  return undefined;
}

/**
 * Market streams over Binance's routed combined paths (`/market/stream?streams=…`, `/public/stream?…`): one
 * connection per route, opened with the wanted streams in its URL, changed later with SUBSCRIBE/UNSUBSCRIBE (paced
 * under Binance's 10 messages/s), and resubscribed in full on every reconnect through the URL.
 */
class BinanceMarketStream implements MarketStream {
  readonly #wanted = new Map<string, MarketTopic>();
  readonly #routes = new Map<'market' | 'public', RouteConnection>();
  #closed = false;

  constructor(
    private readonly wsUrl: string,
    private readonly options: Required<BinanceStreamOptions>,
    private readonly handlers: StreamHandlers<MarketEvent>,
  ) {}

  get topics(): readonly MarketTopic[] {
    return [...this.#wanted.values()];
  }

  add(topics: readonly MarketTopic[]): void {
    if (this.#closed) return;
    for (const t of topics) this.#wanted.set(streamName(t), { ...t, symbol: t.symbol.toUpperCase() });
    this.#sync();
  }

  remove(topics: readonly MarketTopic[]): void {
    for (const t of topics) this.#wanted.delete(streamName(t));
    this.#sync();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#wanted.clear();
    for (const r of this.#routes.values()) r.stop();
    this.#routes.clear();
  }

  #sync(): void {
    for (const route of ['market', 'public'] as const) {
      const names = new Set([...this.#wanted].filter(([, t]) => routeOf(t) === route).map(([n]) => n));
      let conn = this.#routes.get(route);
      if (names.size === 0) {
        conn?.stop();
        this.#routes.delete(route);
        continue;
      }
      if (!conn) {
        conn = new RouteConnection(`${this.wsUrl}/${route}/stream`, this.options, this.handlers);
        this.#routes.set(route, conn);
      }
      conn.want(names);
    }
  }
}

/** One routed connection of a market stream and the streams it carries */
class RouteConnection {
  readonly #socket: ResilientSocket;
  #wanted = new Set<string>();
  /** What the server has been told (URL at connect, then SUBSCRIBE/UNSUBSCRIBE) */
  #subscribed = new Set<string>();
  /** Streams in the URL of the connection being opened */
  #inUrl = new Set<string>();
  readonly #queue: string[] = [];
  #pacer: ReturnType<typeof setInterval> | undefined;
  #nextId = 1;

  constructor(
    private readonly base: string,
    private readonly options: Required<BinanceStreamOptions>,
    private readonly handlers: StreamHandlers<MarketEvent>,
  ) {
    this.#socket = new ResilientSocket(options, {
      url: async () => {
        this.#inUrl = new Set([...this.#wanted].slice(0, STREAMS_PER_MESSAGE));
        return `${this.base}?streams=${[...this.#inUrl].join('/')}`;
      },
      onOpen: () => {
        this.#queue.length = 0;
        this.#subscribed = new Set(this.#inUrl);
        this.#reconcile();
      },
      onMessage: (text) => this.#message(text),
      onState: (state, gap) => handlers.onState?.(state, { gap }),
      onError: (err) => handlers.onError?.(err),
    });
  }

  want(names: Set<string>): void {
    this.#wanted = names;
    if (!this.#socket.running) this.#socket.start();
    else if (this.#socket.isOpen) this.#reconcile();
  }

  stop(): void {
    if (this.#pacer) clearInterval(this.#pacer);
    this.#pacer = undefined;
    this.#socket.stop();
  }

  /** Queues the SUBSCRIBE/UNSUBSCRIBE messages that bring the server's list to the wanted one */
  #reconcile(): void {
    const add = [...this.#wanted].filter((n) => !this.#subscribed.has(n));
    const drop = [...this.#subscribed].filter((n) => !this.#wanted.has(n));
    for (const [method, names] of [
      ['UNSUBSCRIBE', drop],
      ['SUBSCRIBE', add],
    ] as const) {
      for (let i = 0; i < names.length; i += STREAMS_PER_MESSAGE) {
        const params = names.slice(i, i + STREAMS_PER_MESSAGE);
        this.#queue.push(JSON.stringify({ method, params, id: this.#nextId++ }));
        for (const n of params) {
          if (method === 'SUBSCRIBE') this.#subscribed.add(n);
          else this.#subscribed.delete(n);
        }
      }
    }
    this.#drain();
  }

  #drain(): void {
    if (this.#pacer || this.#queue.length === 0) return;
    const send = () => {
      const next = this.#queue.shift();
      if (next !== undefined) this.#socket.send(next);
      if (this.#queue.length === 0 && this.#pacer) {
        clearInterval(this.#pacer);
        this.#pacer = undefined;
      }
    };
    send();
    if (this.#queue.length > 0) this.#pacer = setInterval(send, 1000 / this.options.controlMessagesPerSecond);
  }

  #message(text: string): void {
    const frame = parseFrame(text);
    if (!frame) {
      this.handlers.onError?.(new Error('malformed market stream frame'));
      return;
    }
    if ('result' in frame || 'error' in frame) {
      if (frame.error)
        this.handlers.onError?.(new Error(`stream request refused: ${JSON.stringify(frame.error)}`));
      return;
    }
    const data = (frame.data ?? frame) as Raw;
    const event = toMarketEvent(data);
    if (event) this.handlers.onEvent(event);
  }
}

/**
 * The user-data stream of one account: listenKey created (POST) before each connection, kept alive (PUT) every
 * 50 min, replaced when Binance says `listenKeyExpired` or a keepalive answers -1125, closed (DELETE) at the end
 * unless the caller shares the key.
 */
class BinanceUserDataStream implements UserDataStream {
  #listenKey: string | undefined;
  readonly #socket: ResilientSocket;
  readonly #keepAlive: ReturnType<typeof setInterval>;

  constructor(
    private readonly client: BinanceClient,
    wsUrl: string,
    private readonly keys: ExchangeKeys,
    options: Required<BinanceStreamOptions>,
    private readonly handlers: StreamHandlers<UserDataEvent>,
    private readonly closeListenKey: boolean,
  ) {
    this.#socket = new ResilientSocket(options, {
      url: async () => {
        // POST returns the account's live key (and extends it) or a new one
        const r = (await client.keyed('POST', '/fapi/v1/listenKey', keys.apiKey)) as Raw;
        this.#listenKey = str(r.listenKey);
        return `${wsUrl}/private/ws/${this.#listenKey}`;
      },
      onOpen: () => {},
      onMessage: (text) => this.#message(text),
      onState: (state, gap) => handlers.onState?.(state, { gap }),
      onError: (err) => handlers.onError?.(err),
    });
    this.#keepAlive = setInterval(() => void this.#keepListenKeyAlive(), options.keepAliveMs);
    this.#socket.start();
  }

  get listenKey(): string | undefined {
    return this.#listenKey;
  }

  async #keepListenKeyAlive(): Promise<void> {
    if (!this.#listenKey) return;
    try {
      await this.client.keyed('PUT', '/fapi/v1/listenKey', this.keys.apiKey);
    } catch (err) {
      this.handlers.onError?.(err as Error);
      // The key is gone: a new connection creates a new one
      if (err instanceof ExchangeApiError && err.code === LISTEN_KEY_UNKNOWN) this.#socket.restart();
    }
  }

  #message(text: string): void {
    const frame = parseFrame(text);
    if (!frame) {
      this.handlers.onError?.(new Error('malformed user stream frame'));
      return;
    }
    const data = (frame.data ?? frame) as Raw;
    if (data.e === 'listenKeyExpired') {
      this.#socket.restart();
      return;
    }
    const event = toUserDataEvent(data);
    if (event) this.handlers.onEvent(event);
  }

  async close(): Promise<void> {
    clearInterval(this.#keepAlive);
    this.#socket.stop();
    if (this.closeListenKey && this.#listenKey) {
      this.#listenKey = undefined;
      await this.client.keyed('DELETE', '/fapi/v1/listenKey', this.keys.apiKey).catch(() => {});
    }
  }
}

/** Binance USDⓈ-M streams under a stream base URL (`wss://fstream.binance.com`, the simulator's `ws://…`) */
export class BinanceStreams implements ExchangeStreams {
  readonly #options: Required<BinanceStreamOptions>;
  readonly #wsUrl: string;

  constructor(
    private readonly client: BinanceClient,
    wsUrl: string,
    options: BinanceStreamOptions = {},
  ) {
    this.#wsUrl = wsUrl.replace(/\/+$/, '');
    this.#options = { ...DEFAULTS, ...options };
  }

  marketStream(handlers: StreamHandlers<MarketEvent>): MarketStream {
    return new BinanceMarketStream(this.#wsUrl, this.#options, handlers);
  }

  userDataStream(
    keys: ExchangeKeys,
    handlers: StreamHandlers<UserDataEvent>,
    options: UserDataStreamOptions = {},
  ): UserDataStream {
    return new BinanceUserDataStream(
      this.client,
      this.#wsUrl,
      keys,
      this.#options,
      handlers,
      options.closeListenKey ?? true,
    );
  }
}
