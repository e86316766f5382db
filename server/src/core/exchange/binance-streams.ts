import type { Clock } from '../../lib/clock';
import type { BinanceClient } from './binance-client';
import { BinanceMarketStream } from './binance-market-stream';
import { type BinanceStreamOptions, STREAM_DEFAULTS } from './binance-stream-options';
import { BinanceUserDataStream } from './binance-user-data-stream';
import type { ExchangeKeys } from './exchange-adapter';
import type {
  ExchangeStreams,
  MarketEvent,
  MarketStream,
  StreamHandlers,
  UserDataEvent,
  UserDataStream,
  UserDataStreamOptions,
} from './exchange-streams';

/** Binance USDⓈ-M streams under a stream base URL (`wss://fstream.binance.com`, the simulator's `ws://…`) */
export class BinanceStreams implements ExchangeStreams {
  readonly #options: Required<BinanceStreamOptions>;
  readonly #wsUrl: string;

  constructor(
    private readonly client: BinanceClient,
    wsUrl: string,
    options: BinanceStreamOptions,
    /** Reconnect backoff, heartbeats, the listenKey keepalive and the SUBSCRIBE pacing */
    private readonly clock: Clock,
  ) {
    this.#wsUrl = wsUrl.replace(/\/+$/, '');
    this.#options = { ...STREAM_DEFAULTS, ...options };
  }

  marketStream(handlers: StreamHandlers<MarketEvent>): MarketStream {
    return new BinanceMarketStream(this.#wsUrl, this.#options, handlers, this.clock);
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
      this.clock,
    );
  }
}
