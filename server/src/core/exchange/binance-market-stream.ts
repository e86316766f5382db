import type { Clock, Timer } from '../../lib/clock';
import { readStreamMessage, toMarketEvent } from './binance-stream-events';
import type { BinanceStreamOptions } from './binance-stream-options';
import type { MarketEvent, MarketStream, MarketTopic, StreamHandlers } from './exchange-streams';
import { asError, ResilientSocket } from './resilient-socket';

/** Streams per SUBSCRIBE message and in a connection URL (Binance allows 1024 per connection) */
const STREAMS_PER_MESSAGE = 100;

/**
 * Binance's stream name of a topic: lowercase symbol, `@ticker`, `@markPrice@1s`, `@bookTicker`, `@kline_1m`,
 * `@depth@100ms`, `@aggTrade`
 */
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
    case 'depth':
      return `${s}@depth@100ms`;
    case 'aggTrade':
      return `${s}@aggTrade`;
  }
}

/** Binance serves bookTicker (and depth) on /public, the rest on /market */
const routeOf = (topic: MarketTopic): 'public' | 'market' =>
  topic.kind === 'bookTicker' || topic.kind === 'depth' ? 'public' : 'market';

/**
 * Market streams over Binance's routed combined paths (`/market/stream?streams=…`, `/public/stream?…`): one
 * connection per route, opened with the wanted streams in its URL, changed later with SUBSCRIBE/UNSUBSCRIBE (paced
 * under Binance's 10 messages/s), and resubscribed in full on every reconnect through the URL.
 */
export class BinanceMarketStream implements MarketStream {
  readonly #wanted = new Map<string, MarketTopic>();
  readonly #routes = new Map<'market' | 'public', RouteConnection>();
  #closed = false;

  constructor(
    private readonly wsUrl: string,
    private readonly options: Required<BinanceStreamOptions>,
    private readonly handlers: StreamHandlers<MarketEvent>,
    private readonly clock: Clock,
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
        conn = new RouteConnection(`${this.wsUrl}/${route}/stream`, this.options, this.handlers, this.clock);
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
  #pacer: Timer | undefined;
  #nextId = 1;

  constructor(
    private readonly base: string,
    private readonly options: Required<BinanceStreamOptions>,
    private readonly handlers: StreamHandlers<MarketEvent>,
    private readonly clock: Clock,
  ) {
    this.#socket = new ResilientSocket(
      options,
      {
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
      },
      clock,
    );
  }

  want(names: Set<string>): void {
    this.#wanted = names;
    if (!this.#socket.running) this.#socket.start();
    else if (this.#socket.isOpen) this.#reconcile();
  }

  stop(): void {
    this.#pacer?.cancel();
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
        this.#pacer.cancel();
        this.#pacer = undefined;
      }
    };
    send();
    if (this.#queue.length > 0)
      this.#pacer = this.clock.every(1000 / this.options.controlMessagesPerSecond, send);
  }

  #message(text: string): void {
    let event: MarketEvent | undefined;
    try {
      const message = readStreamMessage('market stream message', text);
      if ('reply' in message) {
        if (message.reply.error) {
          const reason = JSON.stringify(message.reply.error);
          this.handlers.onError?.(new Error(`stream request refused: ${reason}`));
        }
        return;
      }
      event = toMarketEvent(message.event);
    } catch (err) {
      // An unreadable message is reported and skipped; the stream goes on
      this.handlers.onError?.(asError(err));
      return;
    }
    if (event) this.handlers.onEvent(event);
  }
}
