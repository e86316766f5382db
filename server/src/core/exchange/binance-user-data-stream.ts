import type { Clock, Timer } from '../../lib/clock';
import type { BinanceClient } from './binance-client';
import { IgnoredAnswer, ListenKeySchema } from './binance-schemas';
import { readStreamMessage, toUserDataEvent } from './binance-stream-events';
import type { BinanceStreamOptions } from './binance-stream-options';
import { ExchangeApiError, type ExchangeKeys } from './exchange-adapter';
import type { StreamHandlers, UserDataEvent, UserDataStream } from './exchange-streams';
import { asError, ResilientSocket } from './resilient-socket';

/** Binance: "listenKey does not exist" on keepalive */
const LISTEN_KEY_UNKNOWN = -1125;

/**
 * The user-data stream of one account: listenKey created (POST) before each connection, kept alive (PUT) every
 * 50 min, replaced when Binance says `listenKeyExpired` or a keepalive answers -1125, closed (DELETE) at the end
 * unless the caller shares the key. An event it cannot read goes to `onError`, followed by `open` with a gap.
 */
export class BinanceUserDataStream implements UserDataStream {
  #listenKey: string | undefined;
  readonly #socket: ResilientSocket;
  readonly #keepAlive: Timer;

  constructor(
    private readonly client: BinanceClient,
    wsUrl: string,
    private readonly keys: ExchangeKeys,
    options: Required<BinanceStreamOptions>,
    private readonly handlers: StreamHandlers<UserDataEvent>,
    private readonly closeListenKey: boolean,
    clock: Clock,
  ) {
    this.#socket = new ResilientSocket(
      options,
      {
        url: async () => {
          // POST returns the account's live key (and extends it) or a new one
          const r = await client.keyed('POST', '/fapi/v1/listenKey', keys.apiKey, ListenKeySchema);
          this.#listenKey = r.listenKey;
          return `${wsUrl}/private/ws/${this.#listenKey}`;
        },
        onOpen: () => {},
        onMessage: (text) => this.#message(text),
        onState: (state, gap) => handlers.onState?.(state, { gap }),
        onError: (err) => handlers.onError?.(err),
      },
      clock,
    );
    this.#keepAlive = clock.every(options.keepAliveMs, () => void this.#keepListenKeyAlive());
    this.#socket.start();
  }

  get listenKey(): string | undefined {
    return this.#listenKey;
  }

  async #keepListenKeyAlive(): Promise<void> {
    if (!this.#listenKey) return;
    try {
      await this.client.keyed('PUT', '/fapi/v1/listenKey', this.keys.apiKey, IgnoredAnswer);
    } catch (err) {
      this.handlers.onError?.(asError(err));
      // The key is gone: a new connection creates a new one
      if (err instanceof ExchangeApiError && err.code === LISTEN_KEY_UNKNOWN) this.#socket.restart();
    }
  }

  #message(text: string): void {
    let event: UserDataEvent | undefined;
    try {
      const message = readStreamMessage('user stream message', text);
      if ('reply' in message) return;
      if (message.event.e === 'listenKeyExpired') {
        this.#socket.restart();
        return;
      }
      event = toUserDataEvent(message.event);
    } catch (err) {
      // Reported and skipped; as after a reconnect, the caller is told that an account event may be missing
      this.handlers.onError?.(asError(err));
      this.handlers.onState?.('open', { gap: true });
      return;
    }
    if (event) this.handlers.onEvent(event);
  }

  async close(): Promise<void> {
    this.#keepAlive.cancel();
    this.#socket.stop();
    if (this.closeListenKey && this.#listenKey) {
      this.#listenKey = undefined;
      await this.client
        .keyed('DELETE', '/fapi/v1/listenKey', this.keys.apiKey, IgnoredAnswer)
        .catch(() => {});
    }
  }
}
