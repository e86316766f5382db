import type { FastifyBaseLogger } from 'fastify';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeKeys } from '../../core/exchange/exchange-adapter';
import type {
  AlgoOrderUpdateEvent,
  ExchangeStreams,
  OrderUpdateEvent,
  UserDataStream,
} from '../../core/exchange/exchange-streams';

/** What a live bot follows on its owner's account stream */
export interface BotStreamListener {
  /** An order of the account changed (placed, filled, canceled); the bot picks its own by client order id */
  onOrder(event: OrderUpdateEvent): void;
  /** A conditional order of the account changed (fired, canceled, expired) */
  onConditional(event: AlgoOrderUpdateEvent): void;
  /** The stream was down or unreadable for a while: events may be lost, the bot re-reads its orders by REST */
  onGap(): void;
}

interface UserEntry {
  listeners: Set<BotStreamListener>;
  stream?: UserDataStream;
  /** Bumped on stop, so a start still reading keys knows it is stale */
  generation: number;
}

/** One stream per account: `user:environment` */
const keyOf = ({ userId, environment }: TradingAccount) => `${userId}:${environment}`;

/**
 * The user-data streams live bots read their fills from, one per user with a live bot on this instance (opened for
 * the first bot, closed after the last). Fills arrive as they happen (`ORDER_TRADE_UPDATE`: the last filled
 * quantity and price, the commission); after a reconnect every bot of the user hears of the gap and resynchronises
 * by REST. Separate from the pages' streams (`LiveStreams`), which live only while the user has a socket open.
 * The listenKey is the account's, shared with other instances and the pages: it is left to expire, never closed
 */
export class BotUserStreams {
  readonly #users = new Map<string, UserEntry>();

  constructor(
    private readonly deps: {
      streams: ExchangeStreams | undefined;
      keysFor(account: TradingAccount): Promise<ExchangeKeys>;
      log: FastifyBaseLogger;
    },
  ) {}

  /**
   * Follows the account's stream (the bot's account: its environment's exchange, whatever its owner has switched
   * to); returns the unfollow. Without exchange streams, only bar-close REST reads
   */
  follow(account: TradingAccount, listener: BotStreamListener): () => void {
    const key = keyOf(account);
    let user = this.#users.get(key);
    if (!user) {
      user = { listeners: new Set(), generation: 0 };
      this.#users.set(key, user);
    }
    user.listeners.add(listener);
    if (user.listeners.size === 1) void this.#start(account, user);
    const entry = user;
    return () => {
      entry.listeners.delete(listener);
      if (entry.listeners.size > 0 || this.#users.get(key) !== entry) return;
      this.#users.delete(key);
      void this.#stop(entry);
    };
  }

  async close(): Promise<void> {
    const users = [...this.#users.values()];
    this.#users.clear();
    await Promise.all(users.map((u) => this.#stop(u)));
  }

  async #start(account: TradingAccount, user: UserEntry): Promise<void> {
    const streams = this.deps.streams;
    if (!streams) return;
    const { userId } = account;
    const generation = user.generation;
    let keys: ExchangeKeys;
    try {
      keys = await this.deps.keysFor(account);
    } catch (err) {
      // The bot's bar-close reads still see its fills; they are only later
      this.deps.log.warn({ err, userId }, 'bot fills: no account stream (keys not readable)');
      return;
    }
    if (user.generation !== generation || this.#users.get(keyOf(account)) !== user) return;
    user.stream = streams.userDataStream(
      keys,
      {
        onEvent: (event) => {
          if (event.type === 'order') for (const l of user.listeners) l.onOrder(event);
          else if (event.type === 'algoOrder') for (const l of user.listeners) l.onConditional(event);
        },
        onState: (state, { gap }) => {
          if (state === 'open' && gap) for (const l of user.listeners) l.onGap();
        },
        onError: (err) =>
          this.deps.log.warn({ err: err.message, userId }, 'bot fills: account stream trouble'),
      },
      { closeListenKey: false },
    );
  }

  async #stop(user: UserEntry): Promise<void> {
    user.generation += 1;
    const stream = user.stream;
    user.stream = undefined;
    await stream?.close().catch(() => {});
  }
}
