import WebSocket from 'ws';
import type { Clock, Timer } from '../../lib/clock';
import type { BinanceStreamOptions } from './binance-stream-options';
import type { StreamState } from './exchange-streams';

/** A thrown value as an Error, for `onError` */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** What a socket's owner does at each step of the connection's life */
export interface SocketCallbacks {
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
export class ResilientSocket {
  #ws: WebSocket | undefined;
  #stopped = true;
  #attempt = 0;
  #opened = false;
  #restartNow = false;
  #timers = new Set<Timer>();
  #heartbeat: Timer | undefined;

  constructor(
    private readonly options: Required<BinanceStreamOptions>,
    private readonly cb: SocketCallbacks,
    private readonly clock: Clock,
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
    for (const t of this.#timers) t.cancel();
    this.#timers.clear();
    this.#heartbeat?.cancel();
    this.#heartbeat = undefined;
    const ws = this.#ws;
    this.#ws = undefined;
    if (ws && ws.readyState !== WebSocket.CLOSED) ws.close(1000, 'closed by client');
    this.cb.onState('closed', false);
  }

  #later(ms: number, fn: () => void): void {
    const t = this.clock.after(ms, () => {
      this.#timers.delete(t);
      fn();
    });
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
      this.cb.onError(asError(err));
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
      this.#heartbeat?.cancel();
      this.#heartbeat = this.clock.every(this.options.heartbeatMs, () => {
        if (!alive) {
          ws.terminate();
          return;
        }
        alive = false;
        ws.ping();
      });
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
      this.#heartbeat?.cancel();
      this.#heartbeat = undefined;
      this.#scheduleReconnect();
    });
  }
}
