import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { toJson } from '../common/format';
import type { ListenKeys } from '../http/listen-key';
import { WS_API_PATH } from '../http/ws-api';
import type { UserEvent } from '../matching/events';
import type { Exchange } from '../matching/exchange';
import { DepthStreams, type DepthSubscription } from './depth-stream';
import { parseStream, type StreamName, streamPayload } from './payloads';

type Route = 'market' | 'public' | 'private';

interface Connection {
  socket: WebSocket;
  route: Route;
  combined: boolean;
  streams: Map<string, StreamName>;
  /** What each diff depth stream of the connection has sent, by stream name */
  depth: Map<string, DepthSubscription>;
  accountId?: number;
  listenKey?: string;
  /** User-data event types wanted (`events=` query); all when undefined */
  events?: Set<string>;
  /** Simulated time the socket opened at: Binance cuts every connection after 24 h */
  openedAt: number;
  /** Wall-clock time of the last pong (or of the open) */
  lastPongAt: number;
}

const MAX_STREAMS = 1024;

export interface StreamServerOptions {
  /** Simulated lifetime of a connection before the server closes it (Binance: 24 h) */
  connectionLifetimeMs?: number;
  /** Wall-clock interval of the server's ping frames (Binance: every 3 min) */
  pingIntervalMs?: number;
  /** A socket that has not answered a ping for this long (wall clock) is dropped (Binance: 10 min) */
  pongTimeoutMs?: number;
}

/** Close code and reason when a connection reaches its lifetime; Binance's clients must simply reconnect */
export const LIFETIME_CLOSE = { code: 1001, reason: 'connection lifetime of 24 h reached' } as const;

/**
 * Binance's routed WebSocket paths on the simulator's HTTP server:
 * `/market|public/ws/<stream>[/<stream>…]`, `/market|public/stream?streams=a/b` (wrapped `{stream,data}`),
 * `/private/ws/<listenKey>`, `/private/ws?listenKey=…&events=A/B`, `/private/stream?listenKey=…`.
 * Legacy unrouted paths (`/ws/…`, `/stream`) are refused with 404 as Binance does since 2026-04-23.
 */
export class StreamServer {
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #connections = new Set<Connection>();
  readonly #exchange: Exchange;
  readonly #keys: ListenKeys;
  readonly #symbols: Set<string>;
  readonly #unsubscribe: Array<() => void> = [];
  readonly #lifetimeMs: number;
  readonly #pongTimeoutMs: number;
  readonly #depth = new DepthStreams();

  constructor(server: Server, exchange: Exchange, keys: ListenKeys, options: StreamServerOptions = {}) {
    this.#exchange = exchange;
    this.#keys = keys;
    this.#symbols = new Set(exchange.markets.keys());
    this.#lifetimeMs = options.connectionLifetimeMs ?? 24 * 60 * 60_000;
    this.#pongTimeoutMs = options.pongTimeoutMs ?? 10 * 60_000;
    server.on('upgrade', (req, socket, head) => this.#upgrade(req, socket, head));
    this.#unsubscribe.push(exchange.onTick((now) => this.#tick(now)));
    this.#unsubscribe.push(exchange.onUserEvent((id, event) => this.#userEvent(id, event)));
    // Pings are transport-level, so they run on the wall clock: a jump of the simulated clock must not look like
    // a client that stopped answering
    const ping = setInterval(() => this.#ping(), options.pingIntervalMs ?? 3 * 60_000);
    ping.unref();
    this.#unsubscribe.push(() => clearInterval(ping));
  }

  #ping(): void {
    const now = Date.now();
    for (const conn of this.#connections) {
      if (now - conn.lastPongAt > this.#pongTimeoutMs) {
        conn.socket.terminate();
        continue;
      }
      if (conn.socket.readyState === WebSocket.OPEN) conn.socket.ping();
    }
  }

  get size(): number {
    return this.#connections.size;
  }

  #refuse(socket: Duplex, status: number, message: string): void {
    socket.end(
      `HTTP/1.1 ${status} ${message}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${message}`,
    );
  }

  #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://sim');
    // The WebSocket API (http/ws-api.ts) answers its own path
    if (url.pathname === WS_API_PATH) return;
    const [route, mode, ...rest] = url.pathname.split('/').filter(Boolean);
    if (
      (route !== 'market' && route !== 'public' && route !== 'private') ||
      (mode !== 'ws' && mode !== 'stream')
    ) {
      this.#refuse(socket, 404, 'Not Found: use the routed paths /public, /market or /private');
      return;
    }
    const now = this.#exchange.clock.now();
    const conn: Omit<Connection, 'socket'> = {
      route,
      combined: mode === 'stream',
      streams: new Map(),
      depth: new Map(),
      openedAt: now,
      lastPongAt: Date.now(),
    };
    if (route === 'private') {
      const key = url.searchParams.get('listenKey') ?? rest[0] ?? url.searchParams.get('streams') ?? '';
      const accountId = this.#keys.resolve(key, now);
      if (accountId === undefined) {
        this.#refuse(socket, 400, 'Invalid listenKey');
        return;
      }
      conn.accountId = accountId;
      conn.listenKey = key;
      const events = url.searchParams.get('events');
      if (events) conn.events = new Set(events.split('/'));
    } else {
      const names =
        mode === 'ws' ? rest.join('/').split('/') : (url.searchParams.get('streams') ?? '').split('/');
      for (const name of names.filter(Boolean)) {
        const stream = parseStream(name, this.#symbols);
        if (!stream || stream.route !== route) {
          this.#refuse(socket, 400, `Invalid stream name "${name}" for /${route}`);
          return;
        }
        this.#add(conn, stream, now);
      }
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: Connection = { ...conn, socket: ws };
      this.#connections.add(connection);
      ws.on('close', () => this.#connections.delete(connection));
      ws.on('message', (data) => this.#message(connection, data));
      ws.on('pong', () => {
        connection.lastPongAt = Date.now();
      });
    });
  }

  #send(conn: Connection, stream: string, data: object): void {
    if (conn.socket.readyState !== WebSocket.OPEN) return;
    conn.socket.send(toJson(conn.combined ? { stream, data } : data));
  }

  /** JSON SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS, answered as Binance does */
  #message(conn: Connection, data: RawData): void {
    let msg: { method?: unknown; params?: unknown; id?: unknown };
    try {
      msg = JSON.parse(data.toString()) as typeof msg;
    } catch {
      conn.socket.send(
        JSON.stringify({ error: { code: 3, msg: 'Invalid JSON: expected a request object' } }),
      );
      return;
    }
    const id = msg.id ?? null;
    const params = Array.isArray(msg.params)
      ? msg.params.filter((p): p is string => typeof p === 'string')
      : [];
    if (msg.method === 'LIST_SUBSCRIPTIONS') {
      conn.socket.send(JSON.stringify({ result: [...conn.streams.keys()], id }));
      return;
    }
    if (msg.method !== 'SUBSCRIBE' && msg.method !== 'UNSUBSCRIBE') {
      conn.socket.send(JSON.stringify({ error: { code: 2, msg: `Invalid request: unknown method` }, id }));
      return;
    }
    if (conn.route === 'private') {
      conn.socket.send(
        JSON.stringify({ error: { code: 2, msg: 'Invalid request: private streams only' }, id }),
      );
      return;
    }
    if (msg.method === 'UNSUBSCRIBE') {
      for (const name of params) {
        conn.streams.delete(name);
        conn.depth.delete(name);
      }
      conn.socket.send(JSON.stringify({ result: null, id }));
      return;
    }
    const parsed = params.map((name) => parseStream(name, this.#symbols));
    const bad = params.find((_, i) => !parsed[i] || parsed[i]?.route !== conn.route);
    if (bad !== undefined || conn.streams.size + params.length > MAX_STREAMS) {
      conn.socket.send(
        JSON.stringify({
          error: { code: 2, msg: `Invalid request: stream "${bad}" not served on /${conn.route}` },
          id,
        }),
      );
      return;
    }
    const now = this.#exchange.clock.now();
    for (const s of parsed) if (s) this.#add(conn, s, now);
    conn.socket.send(JSON.stringify({ result: null, id }));
  }

  /** Subscribes a connection to a stream; subscribing again to one it has changes nothing */
  #add(conn: Pick<Connection, 'streams' | 'depth'>, stream: StreamName, now: number): void {
    if (conn.streams.has(stream.name)) return;
    conn.streams.set(stream.name, stream);
    const market = this.#exchange.markets.get(stream.symbol);
    // A diff stream starts from the book of the moment it is subscribed
    if (stream.kind === 'depth' && market) conn.depth.set(stream.name, this.#depth.subscribe(market, now));
  }

  #tick(now: number): void {
    for (const expired of this.#keys.expire(now)) this.closeListenKey(expired.key, now);
    if (this.#connections.size === 0) return;
    for (const conn of this.#connections) {
      if (now - conn.openedAt < this.#lifetimeMs) continue;
      this.#connections.delete(conn);
      conn.socket.close(LIFETIME_CLOSE.code, LIFETIME_CLOSE.reason);
    }
    const cache = new Map<string, object | undefined>();
    for (const conn of this.#connections) {
      for (const stream of conn.streams.values()) {
        if (stream.kind === 'depth') {
          this.#depthEvents(conn, stream, now);
          continue;
        }
        // Stateless streams: one payload per kind and tick, whatever the update speed in the name
        const cacheKey = `${stream.symbol}@${stream.kind}@${stream.interval ?? ''}@${stream.levels ?? ''}`;
        let payload = cache.get(cacheKey);
        if (!cache.has(cacheKey)) {
          const market = this.#exchange.markets.get(stream.symbol);
          payload = market ? streamPayload(stream, market, now) : undefined;
          cache.set(cacheKey, payload);
        }
        if (payload) this.#send(conn, stream.name, payload);
      }
    }
  }

  /** The diff depth stream is stateful per subscription: its events come from what that subscription was sent */
  #depthEvents(conn: Connection, stream: StreamName, now: number): void {
    const market = this.#exchange.markets.get(stream.symbol);
    const sub = conn.depth.get(stream.name);
    if (!market || !sub) return;
    for (const event of this.#depth.events(sub, market, now)) this.#send(conn, stream.name, event);
  }

  #userEvent(accountId: number, event: UserEvent): void {
    for (const conn of this.#connections) {
      if (conn.accountId !== accountId || !conn.listenKey) continue;
      if (conn.events && !conn.events.has(event.e)) continue;
      this.#send(conn, conn.listenKey, event);
    }
  }

  /** Tells a key's sockets `listenKeyExpired`, then closes them */
  closeListenKey(key: string, now = this.#exchange.clock.now()): void {
    for (const conn of this.#connections) {
      if (conn.listenKey !== key) continue;
      this.#send(conn, key, { e: 'listenKeyExpired', E: now, listenKey: key });
      conn.socket.close(1000, 'listenKey expired');
    }
  }

  /** Drops every socket without a close handshake (fault injection) */
  dropAll(): number {
    const n = this.#connections.size;
    for (const conn of this.#connections) conn.socket.terminate();
    return n;
  }

  async close(): Promise<void> {
    for (const u of this.#unsubscribe) u();
    this.dropAll();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
  }
}
