import type { CreateOrderRequest, OrderIntentState, TradingEnvironment } from '@kestrel/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { CredentialsService } from '../../core/credentials/credentials-service';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeAdapter, ExchangeKeys } from '../../core/exchange/exchange-adapter';
import type { Clock } from '../../lib/clock';
import type { Queryable } from '../../lib/database/database';
import type { LeverageGuard, OrderGuard } from './order-guard';
import type { OrderIntentRepository, StoredIntent } from './order-intent-repository';
import type { OrderTracker } from './order-tracker';

/** How long the order manager waits and how often it looks; tests and the crash test shorten them */
export interface OrderTimings {
  /**
   * After a create whose answer was lost, "the exchange has no such order" proves "not placed" only once this has
   * passed since sending: Binance executes a request that arrives within its recvWindow (5 s) of its timestamp, and
   * our client gives up on an answer after 10 s, so by then the request is either on the book or never will be
   */
  answerWindowMs: number;
  /** A `pending` intent this old was never sent (its process stopped between recording and sending) */
  pendingStaleMs: number;
  /** Lookups of an unknown order: right away, then after these delays (the last one repeats) */
  backoffMs: readonly number[];
  /** The sweep over every unresolved intent (all users), a safety net for lookups lost with a process */
  sweepIntervalMs: number;
  /** Dead-man switch: the countdown armed on the exchange, refreshed every third of it */
  deadmanCountdownMs: number;
}

export const DEFAULT_ORDER_TIMINGS: OrderTimings = {
  answerWindowMs: 20_000,
  pendingStaleMs: 60_000,
  backoffMs: [500, 1_000, 2_000, 4_000, 8_000, 15_000, 30_000],
  sweepIntervalMs: 30_000,
  deadmanCountdownMs: 60_000,
};

/** What the order manager is built from (the orders plugin hands them in) */
export interface OrderDeps {
  db: Queryable;
  repo: OrderIntentRepository;
  exchange: ExchangeAdapter;
  credentials: Pick<CredentialsService, 'keysFor' | 'tradingKeysFor'>;
  guard: OrderGuard;
  /** The max-leverage limit, asked before any leverage change (a bot's at its start, the trader's by hand) */
  leverageGuard: LeverageGuard;
  clock: Clock;
  log: FastifyBaseLogger;
  timings?: Partial<OrderTimings>;
}

export const UNRESOLVED: readonly OrderIntentState[] = ['pending', 'sending', 'unknown'];

export function describe(o: CreateOrderRequest): string {
  const size = o.closePosition ? 'close-position' : o.quantity;
  const price = o.price ? ` @ ${o.price}` : o.triggerPrice ? ` trigger ${o.triggerPrice}` : '';
  return `${o.side} ${size} ${o.symbol} ${o.type}${price}`;
}

export const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** The account an intent was sent on: its owner's, on the environment recorded with it */
export const accountOfIntent = (intent: StoredIntent): TradingAccount => ({
  userId: intent.userId,
  environment: intent.environment,
});

/**
 * The repository as the order manager's parts use it: every intent row it writes is an answer of the exchange
 * (or a conclusion from one), so each is handed to the order tracker on the way back
 */
function feedingTracker(repo: OrderIntentRepository, tracker: OrderTracker): OrderIntentRepository {
  return {
    ...repo,
    async claim(db, intent) {
      const claimed = await repo.claim(db, intent);
      tracker.noteIntent(claimed.intent);
      return claimed;
    },
    async update(db, id, change, from) {
      const updated = await repo.update(db, id, change, from);
      if (updated) tracker.noteIntent(updated);
      return updated;
    },
  };
}

/** What the order manager's parts (placing, resolving, reconciling, the dead-man switch, trades) share */
export class OrderContext {
  readonly db: Queryable;
  readonly repo: OrderIntentRepository;
  readonly exchange: ExchangeAdapter;
  readonly guard: OrderGuard;
  readonly leverageGuard: LeverageGuard;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly timings: OrderTimings;
  readonly #credentials: OrderDeps['credentials'];

  constructor(deps: OrderDeps, tracker: OrderTracker) {
    this.db = deps.db;
    this.repo = feedingTracker(deps.repo, tracker);
    this.exchange = deps.exchange;
    this.guard = deps.guard;
    this.leverageGuard = deps.leverageGuard;
    this.clock = deps.clock;
    this.log = deps.log;
    this.timings = { ...DEFAULT_ORDER_TIMINGS, ...deps.timings };
    this.#credentials = deps.credentials;
  }

  now(): number {
    return this.clock.now().getTime();
  }

  /**
   * The account's keys, tagged with its environment: the exchange router sends them to that environment's exchange
   * only. `opensRisk`: keys whose last check failed open nothing
   */
  async keys(
    account: TradingAccount,
    { opensRisk = false }: { opensRisk?: boolean } = {},
  ): Promise<ExchangeKeys & { environment: TradingEnvironment }> {
    const keys = opensRisk
      ? await this.#credentials.tradingKeysFor(account)
      : await this.#credentials.keysFor(account);
    return { apiKey: keys.apiKey, secretKey: keys.secretKey, environment: keys.environment };
  }

  /** The intent as stored now (after a guarded move was refused: someone else moved it) */
  async current(intent: StoredIntent): Promise<StoredIntent> {
    return (await this.repo.byId(this.db, intent.id)) ?? intent;
  }

  /** An event of one intent, for the user to read */
  async event(intent: StoredIntent, kind: string, text: string): Promise<void> {
    await this.repo.insertEvent(this.db, {
      userId: intent.userId,
      intentId: intent.id,
      kind,
      message: text,
      data: { clientOrderId: intent.clientOrderId, state: intent.state, source: intent.source },
      at: this.now(),
    });
  }
}
