import type {
  CreateOrderRequest,
  OrderEvent,
  OrderIntentSource,
  OrderIntentState,
  ReconcileReport,
  TradingEnvironment,
} from '@kestrel/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { CredentialsService } from '../../core/credentials/credentials-service';
import { isOpenPosition } from '../../core/exchange/account-figures';
import {
  type ExchangeAdapter,
  ExchangeApiError,
  type ExchangeKeys,
  ExchangeRateLimitError,
  ExchangeUnavailableError,
  isConditionalType,
  LostOrderNotFoundError,
  type Order,
  OrderStatusUnknownError,
  type Trade,
} from '../../core/exchange/exchange-adapter';
import { exchangeHttpError, viaExchange } from '../../core/exchange/exchange-http-error';
import type { Clock } from '../../lib/clock';
import type { Queryable } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import { botClientOrderId, manualClientOrderId } from './client-order-id';
import type { OrderGuard } from './order-guard';
import {
  FINAL_ORDER_STATUSES,
  type OrderIntentRepository,
  type StoredIntent,
} from './order-intent-repository';

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

/** An order to place: who asks, for which bot, under which key */
export interface PlaceIntent {
  userId: string;
  order: CreateOrderRequest;
  source: OrderIntentSource;
  /** Bots: the bot placing it (required with `source: 'bot'`) */
  botId?: string;
  /**
   * Bots: the bot's own name for this intent, stable across restarts (e.g. `entry:1736935200000`); the client order
   * id is derived from (botId, intentKey), so asking twice never sends twice
   */
  intentKey?: string;
  /** Manual orders: the client order id the browser generated once per submit */
  clientOrderId?: string;
  /** Manual orders: an `Idempotency-Key` header, used when no clientOrderId is given */
  idempotencyKey?: string;
  /** Where to send it: a bot's environment; else the user's current one */
  environment?: TradingEnvironment;
}

/** Holder of a dead-man switch armed by hand (not by a bot) */
const MANUAL_HOLDER = 'manual';

const deadmanKey = (userId: string, environment: TradingEnvironment, symbol: string) =>
  `${userId}:${environment}:${symbol}`;

const UNRESOLVED: readonly OrderIntentState[] = ['pending', 'sending', 'unknown'];

function describe(o: CreateOrderRequest): string {
  const size = o.closePosition ? 'close-position' : o.quantity;
  const price = o.price ? ` @ ${o.price}` : o.triggerPrice ? ` trigger ${o.triggerPrice}` : '';
  return `${o.side} ${size} ${o.symbol} ${o.type}${price}`;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Same order asked again under the same key? (JSON of the parsed request, key order aside) */
function sameRequest(a: CreateOrderRequest, b: CreateOrderRequest): boolean {
  const norm = (o: CreateOrderRequest) =>
    JSON.stringify(
      Object.fromEntries(
        Object.entries(o)
          .filter(([k, v]) => v !== undefined && k !== 'clientOrderId')
          .sort(([x], [y]) => x.localeCompare(y)),
      ),
    );
  return norm(a) === norm(b);
}

/**
 * The one way an order reaches the exchange (manual orders from the pages, bots, the kill switch's closes).
 * Every order is an intent written to `order_intents` before it is sent, under a deterministic client order id;
 * the account's risk guard judges it; it is sent once. An answer that was lost makes it `unknown`, and only
 * lookups by client order id resolve it (right away with backoff, on a periodic sweep, at start), never a second
 * send. Reconciliation brings placed intents up to the exchange's state and reports what no intent owns.
 * Outcomes are returned, not thrown: `FuturesService` turns them into HTTP answers, a bot reads the state.
 */
/** Fills per `userTrades` page (Binance's most) */
const TRADE_PAGE = 1000;
/** What Binance answers for a start time without an end: the 7 days after it */
const TRADE_WINDOW_MS = 7 * 86_400_000;
/** Pages a resumed bot reads at most (10,000 fills, weight 50) */
const TRADE_PAGES_MAX = 10;
const nextId = (id: string) => (BigInt(id) + 1n).toString();

export class OrderManager {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  /** Armed switches by `user:environment:symbol` (the exchange keeps one countdown per account and symbol) */
  readonly #deadman = new Map<
    string,
    { countdownMs: number; timer: NodeJS.Timeout; holders: Set<string>; environment: TradingEnvironment }
  >();
  #sweepTimer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;
  #stopped = false;
  readonly timings: OrderTimings;

  constructor(
    private readonly deps: {
      db: Queryable;
      repo: OrderIntentRepository;
      exchange: ExchangeAdapter;
      credentials: Pick<CredentialsService, 'keysFor' | 'tradingKeysFor'>;
      guard: OrderGuard;
      clock: Clock;
      log: FastifyBaseLogger;
      timings?: Partial<OrderTimings>;
    },
  ) {
    this.timings = { ...DEFAULT_ORDER_TIMINGS, ...deps.timings };
  }

  #now(): number {
    return this.deps.clock.now().getTime();
  }

  /**
   * The user's keys of `environment` (else of their current one), tagged with it: the exchange router sends them to
   * that environment's exchange only
   */
  async #keys(
    userId: string,
    environment?: TradingEnvironment,
    { opensRisk = false }: { opensRisk?: boolean } = {},
  ): Promise<ExchangeKeys & { environment: TradingEnvironment }> {
    const keys = opensRisk
      ? await this.deps.credentials.tradingKeysFor(userId, environment)
      : await this.deps.credentials.keysFor(userId, environment);
    return { apiKey: keys.apiKey, secretKey: keys.secretKey, environment: keys.environment };
  }

  // ---- placing --------------------------------------------------------------------------------------------------

  /**
   * Records, checks and sends an order once. Answers the intent as it stands: `placed` (with the exchange's order),
   * `rejected` / `not_placed` (with the reason), or `unknown` (being resolved; it never gets sent again). The same
   * key asked again answers the first intent (looked up again when still unresolved) without sending anything; the
   * same key for a different order is a 409. Throws only for bad input (400) and missing keys (400)
   */
  async place(input: PlaceIntent): Promise<StoredIntent> {
    const { userId, order } = input;
    if (input.source === 'bot' && (!input.botId || !input.intentKey)) {
      throw new HttpError(400, 'VALIDATION_ERROR', 'a bot order needs botId and intentKey');
    }
    const clientOrderId =
      input.botId && input.intentKey
        ? botClientOrderId(input.botId, input.intentKey)
        : manualClientOrderId(userId, {
            clientOrderId: input.clientOrderId ?? order.clientOrderId,
            idempotencyKey: input.idempotencyKey,
          });
    // A key whose last check failed opens nothing; closing orders and the kill switch still go through
    const closing =
      input.source === 'kill_switch' || order.reduceOnly === true || order.closePosition === true;
    const keys = await this.#keys(userId, input.environment, { opensRisk: !closing });
    const request: CreateOrderRequest = { ...order, clientOrderId };
    const { intent, created } = await this.deps.repo.claim(this.deps.db, {
      userId,
      environment: keys.environment,
      botId: input.botId ?? null,
      source: input.source,
      clientOrderId,
      kind: isConditionalType(order.type) ? 'conditional' : 'order',
      request,
      at: this.#now(),
    });
    let current = intent;
    if (!created) {
      if (!sameRequest(intent.request, request)) {
        throw new HttpError(
          409,
          'IDEMPOTENCY_KEY_REUSED',
          `clientOrderId ${clientOrderId} was already used for a different order (${describe(intent.request)}); ` +
            'use a new key for a new order',
        );
      }
      // Asked again from another environment: the first one is where it went, and where it is looked up
      if (intent.environment !== keys.environment) {
        throw new HttpError(
          409,
          'IDEMPOTENCY_KEY_REUSED',
          `clientOrderId ${clientOrderId} was already used for an order on ${intent.environment}; use a new key for a new order`,
        );
      }
      if (UNRESOLVED.includes(intent.state)) return this.#resolveQuietly(intent, keys);
      // A bot that asks again for an intent proven absent (its process stopped before sending, or the exchange
      // never got it) gets it sent now, under the same id: nothing of it exists on the exchange to duplicate.
      // A manual order keeps its first outcome (the page makes a new key for a new submit)
      if (intent.state !== 'not_placed' || input.source !== 'bot') return intent;
      const reopened = await this.deps.repo.update(
        this.deps.db,
        intent.id,
        { state: 'pending', at: this.#now() },
        ['not_placed'],
      );
      if (!reopened) return (await this.deps.repo.byId(this.deps.db, intent.id)) ?? intent;
      current = reopened;
    }

    try {
      await this.deps.guard.checkOrder(userId, keys, request);
    } catch (err) {
      const http = err instanceof HttpError ? err : exchangeHttpError(err);
      const refused = http instanceof HttpError && http.statusCode === 422;
      return this.#settle(current, refused ? 'rejected' : 'not_placed', http, ['pending']);
    }

    const sentAt = this.#now();
    const sending = await this.deps.repo.update(
      this.deps.db,
      current.id,
      {
        state: 'sending',
        sentAt,
        // The sweep leaves it to this call until our client has certainly given up on the answer
        nextCheckAt: sentAt + this.timings.answerWindowMs,
        at: sentAt,
      },
      ['pending'],
    );
    // Another process judged it stale meanwhile (it cannot have sent it: only this call sends)
    if (!sending) return (await this.deps.repo.byId(this.deps.db, current.id)) ?? current;

    let placed: Order;
    try {
      placed = await this.deps.exchange.placeOrder(keys, request);
    } catch (err) {
      return this.#afterSendFailure(sending, err);
    }
    // A lookup may have raced us to 'unknown', or (a send held back by the weight limit past the answer window)
    // to 'not_placed': the exchange's own answer settles it either way
    const done = await this.deps.repo.update(
      this.deps.db,
      current.id,
      { state: 'placed', order: placed, nextCheckAt: null, at: this.#now() },
      ['sending', 'unknown', 'not_placed'],
    );
    this.#cancelTimer(current.id);
    return done ?? (await this.deps.repo.byId(this.deps.db, current.id)) ?? sending;
  }

  async #afterSendFailure(intent: StoredIntent, err: unknown): Promise<StoredIntent> {
    const lost =
      err instanceof OrderStatusUnknownError ||
      err instanceof LostOrderNotFoundError ||
      (err instanceof ExchangeUnavailableError && err.maybeExecuted) ||
      // Anything we cannot classify may have reached the exchange: only a lookup may say it did not
      !(
        err instanceof ExchangeApiError ||
        err instanceof ExchangeUnavailableError ||
        err instanceof ExchangeRateLimitError ||
        err instanceof HttpError
      );
    if (!lost) {
      const http = exchangeHttpError(err);
      const state = err instanceof ExchangeApiError && err.status < 500 ? 'rejected' : 'not_placed';
      return this.#settle(intent, state, http, ['sending', 'unknown']);
    }
    const now = this.#now();
    const unknown = await this.deps.repo.update(
      this.deps.db,
      intent.id,
      {
        state: 'unknown',
        lastError: message(err),
        nextCheckAt: now + this.#backoff(0),
        at: now,
      },
      ['sending'],
    );
    this.deps.log.warn(
      { intentId: intent.id, clientOrderId: intent.clientOrderId, err: message(err) },
      'order answer lost: status unknown, resolving by lookup',
    );
    this.#schedule(intent.id, this.#backoff(0));
    return unknown ?? (await this.deps.repo.byId(this.deps.db, intent.id)) ?? intent;
  }

  /** Stores a refusal or a proven "not placed" with the HTTP answer it gets, so a repeat answers the same */
  async #settle(
    intent: StoredIntent,
    state: 'rejected' | 'not_placed',
    err: unknown,
    from: readonly OrderIntentState[],
  ): Promise<StoredIntent> {
    const http = err instanceof HttpError ? err : undefined;
    const updated = await this.deps.repo.update(
      this.deps.db,
      intent.id,
      {
        state,
        reason: message(err),
        errorStatus: http?.statusCode ?? 503,
        errorCode: http?.code ?? 'ORDER_NOT_PLACED',
        nextCheckAt: null,
        at: this.#now(),
      },
      from,
    );
    return updated ?? (await this.deps.repo.byId(this.deps.db, intent.id)) ?? intent;
  }

  // ---- resolving ------------------------------------------------------------------------------------------------

  #backoff(attempt: number): number {
    const steps = this.timings.backoffMs;
    return steps[Math.min(attempt, steps.length - 1)] ?? 30_000;
  }

  #schedule(intentId: string, delayMs: number): void {
    if (this.#stopped) return;
    this.#cancelTimer(intentId);
    const timer = setTimeout(() => {
      this.#timers.delete(intentId);
      void this.resolve(intentId).catch((err) =>
        this.deps.log.error({ intentId, err: message(err) }, 'order lookup failed'),
      );
    }, delayMs);
    timer.unref();
    this.#timers.set(intentId, timer);
  }

  #cancelTimer(intentId: string): void {
    const t = this.#timers.get(intentId);
    if (t) clearTimeout(t);
    this.#timers.delete(intentId);
  }

  /** Resolves one intent by id (a lookup by client order id when its outcome is unknown); answers it as it stands */
  async resolve(intentId: string): Promise<StoredIntent | undefined> {
    const intent = await this.deps.repo.byId(this.deps.db, intentId);
    if (!intent || !UNRESOLVED.includes(intent.state)) return intent;
    let keys: ExchangeKeys;
    try {
      keys = await this.#keys(intent.userId, intent.environment);
    } catch (err) {
      return this.#stillUnknown(intent, err);
    }
    return this.#resolveWith(intent, keys);
  }

  async #resolveQuietly(intent: StoredIntent, keys: ExchangeKeys): Promise<StoredIntent> {
    try {
      return await this.#resolveWith(intent, keys);
    } catch (err) {
      this.deps.log.error({ intentId: intent.id, err: message(err) }, 'order lookup failed');
      return intent;
    }
  }

  async #resolveWith(intent: StoredIntent, keys: ExchangeKeys): Promise<StoredIntent> {
    const now = this.#now();
    if (intent.state === 'pending') {
      // Only the call that recorded it sends it; once stale, that call is gone and nothing was sent
      if (now - intent.updatedAt < this.timings.pendingStaleMs) return intent;
      const done = await this.#settle(
        intent,
        'not_placed',
        new HttpError(
          503,
          'ORDER_NOT_PLACED',
          'The server stopped before sending this order; it was not placed',
        ),
        ['pending'],
      );
      await this.#event(
        done,
        'resolved',
        `Order ${describe(intent.request)} was not sent: the server stopped first`,
      );
      return done;
    }
    // Still in the hands of the call sending it (a repeated request meanwhile): its answer is not lost yet
    if (intent.state === 'sending' && intent.nextCheckAt !== null && now < intent.nextCheckAt) return intent;
    let found: Order | undefined;
    try {
      found = await this.deps.exchange.findOrder(keys, intent.symbol, intent.clientOrderId, intent.kind);
    } catch (err) {
      return this.#stillUnknown(intent, err);
    }
    if (found) {
      const done = await this.deps.repo.update(
        this.deps.db,
        intent.id,
        { state: 'placed', order: found, nextCheckAt: null, lastError: null, attempt: true, at: now },
        UNRESOLVED,
      );
      if (!done) return (await this.deps.repo.byId(this.deps.db, intent.id)) ?? intent;
      this.#cancelTimer(intent.id);
      await this.#event(
        done,
        'resolved',
        `Order ${describe(intent.request)} (${intent.clientOrderId}) was placed: the exchange has it (${found.status})`,
      );
      return done;
    }
    const sentAt = intent.sentAt ?? intent.createdAt;
    if (now - sentAt < this.timings.answerWindowMs) {
      // The request may still arrive within the exchange's window: not found yet proves nothing
      return this.#stillUnknown(
        intent,
        new Error('not on the exchange yet'),
        sentAt + this.timings.answerWindowMs,
      );
    }
    const done = await this.deps.repo.update(
      this.deps.db,
      intent.id,
      {
        state: 'not_placed',
        reason: `The exchange has no order ${intent.clientOrderId}: it was not placed`,
        errorStatus: 503,
        errorCode: 'ORDER_NOT_PLACED',
        nextCheckAt: null,
        attempt: true,
        at: now,
      },
      UNRESOLVED,
    );
    if (!done) return (await this.deps.repo.byId(this.deps.db, intent.id)) ?? intent;
    this.#cancelTimer(intent.id);
    await this.#event(
      done,
      'resolved',
      `Order ${describe(intent.request)} (${intent.clientOrderId}) was not placed: the exchange has no such order`,
    );
    return done;
  }

  /** Another lookup later (backoff by attempts made, not before `notBefore`) */
  async #stillUnknown(intent: StoredIntent, err: unknown, notBefore = 0): Promise<StoredIntent> {
    const now = this.#now();
    const next = Math.max(now + this.#backoff(intent.attempts + 1), notBefore);
    const updated = await this.deps.repo.update(
      this.deps.db,
      intent.id,
      {
        // A 'sending' intent looked up from outside its own call: its answer is, by now, lost
        state: intent.state === 'sending' ? 'unknown' : intent.state,
        lastError: message(err),
        nextCheckAt: next,
        attempt: true,
        at: now,
      },
      [intent.state],
    );
    this.#schedule(intent.id, next - now);
    return updated ?? intent;
  }

  /** Looks up every unresolved intent that is due (all users); overlapping calls share one pass */
  sweep(): Promise<void> {
    this.#sweeping ??= this.#sweepOnce().finally(() => {
      this.#sweeping = undefined;
    });
    return this.#sweeping;
  }

  async #sweepOnce(): Promise<void> {
    const due = await this.deps.repo.unresolved(this.deps.db, { dueBy: this.#now() });
    for (const intent of due) {
      if (this.#stopped) return;
      try {
        await this.resolve(intent.id);
      } catch (err) {
        this.deps.log.error({ intentId: intent.id, err: message(err) }, 'order sweep: lookup failed');
      }
    }
  }

  // ---- reconciling ---------------------------------------------------------------------------------------------

  /**
   * Brings the user's intents (optionally of one symbol) to the exchange's true state: unresolved ones are looked
   * up, placed ones that may still work are re-read; open orders and positions no intent owns are reported (an
   * event the user reads, once per finding) and left alone. A bot calls it before it starts
   */
  async reconcile(
    userId: string,
    symbol?: string,
    environment?: TradingEnvironment,
  ): Promise<ReconcileReport> {
    const keys = await this.#keys(userId, environment);
    const env = keys.environment;
    const report: ReconcileReport = {
      resolved: 0,
      unresolved: 0,
      synced: 0,
      foreignOrders: [],
      foreignPositions: [],
    };
    for (const intent of await this.deps.repo.unresolved(this.deps.db, {
      userId,
      symbol,
      environment: env,
    })) {
      const after = await this.#resolveWith(intent, keys);
      if (UNRESOLVED.includes(after.state)) report.unresolved++;
      else report.resolved++;
    }
    const [open, positions] = await viaExchange(() =>
      Promise.all([this.deps.exchange.openOrders(keys, symbol), this.deps.exchange.positions(keys, symbol)]),
    );
    const openById = new Map(open.map((o) => [o.clientOrderId, o]));
    for (const intent of await this.deps.repo.openPlaced(this.deps.db, {
      userId,
      symbol,
      environment: env,
    })) {
      let now: Order | undefined = openById.get(intent.clientOrderId);
      if (!now) {
        now = await viaExchange(() =>
          this.deps.exchange.findOrder(keys, intent.symbol, intent.clientOrderId, intent.kind),
        );
      }
      if (!now) continue;
      const before = intent.order;
      if (before && before.status === now.status && before.executedQuantity === now.executedQuantity)
        continue;
      const updated = await this.deps.repo.update(this.deps.db, intent.id, { order: now, at: this.#now() });
      report.synced++;
      if (updated && FINAL_ORDER_STATUSES.includes(now.status)) {
        await this.#event(
          updated,
          'synced',
          `Order ${describe(intent.request)} is ${now.status} on the exchange`,
        );
      }
    }
    const known = await this.deps.repo.knownClientIds(
      this.deps.db,
      userId,
      open.map((o) => o.clientOrderId),
    );
    for (const o of open) {
      if (known.has(o.clientOrderId)) continue;
      report.foreignOrders.push({ symbol: o.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId });
      await this.deps.repo.insertEvent(this.deps.db, {
        userId,
        intentId: null,
        kind: 'foreign_order',
        message:
          `Open order ${o.orderId} (${o.side} ${o.quantity} ${o.symbol} ${o.type}${Number(o.price) ? ` @ ${o.price}` : ''}) ` +
          'was not placed by Kestrel; it is left as it is',
        data: { symbol: o.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId, status: o.status },
        dedupeKey: `foreign_order:${o.kind}:${o.orderId}`,
        at: this.#now(),
      });
    }
    const ours = await this.deps.repo.placedSymbols(this.deps.db, userId);
    for (const p of positions.filter(isOpenPosition)) {
      if (ours.has(p.symbol)) continue;
      report.foreignPositions.push({ symbol: p.symbol, positionSide: p.positionSide, amount: p.amount });
      await this.deps.repo.insertEvent(this.deps.db, {
        userId,
        intentId: null,
        kind: 'foreign_position',
        message: `Position ${p.amount} ${p.symbol} (${p.positionSide}) was not opened by Kestrel; it is left as it is`,
        data: { symbol: p.symbol, positionSide: p.positionSide, amount: p.amount },
        dedupeKey: `foreign_position:${p.symbol}:${p.positionSide}:${p.amount}`,
        at: this.#now(),
      });
    }
    return report;
  }

  // ---- cancelling ----------------------------------------------------------------------------------------------

  /**
   * Cancels the order of an intent by its client order id (which also reaches an order whose outcome was unknown);
   * an order that is no longer open is re-read instead. Answers the intent as it now stands
   */
  async cancel(userId: string, clientOrderId: string): Promise<StoredIntent> {
    const intent = await this.deps.repo.byClientId(this.deps.db, userId, clientOrderId);
    if (!intent)
      throw new HttpError(404, 'ORDER_NOT_FOUND', `No Kestrel order with client id ${clientOrderId}`);
    const keys = await this.#keys(userId, intent.environment);
    try {
      const order = await this.deps.exchange.cancelOrder(keys, intent.symbol, {
        clientOrderId,
        kind: intent.kind,
      });
      const updated = await this.deps.repo.update(this.deps.db, intent.id, {
        state: 'placed',
        order,
        nextCheckAt: null,
        at: this.#now(),
      });
      this.#cancelTimer(intent.id);
      return updated ?? intent;
    } catch (err) {
      const missing = err instanceof ExchangeApiError && (err.code === -2011 || err.code === -2013);
      if (!missing) throw exchangeHttpError(err);
      // Not open (filled, cancelled) or never placed: the lookup says which
      const after = UNRESOLVED.includes(intent.state) ? await this.#resolveWith(intent, keys) : intent;
      if (after.state !== 'placed') return after;
      const order = await viaExchange(() =>
        this.deps.exchange.findOrder(keys, intent.symbol, clientOrderId, intent.kind),
      );
      if (!order) return after;
      return (await this.deps.repo.update(this.deps.db, intent.id, { order, at: this.#now() })) ?? after;
    }
  }

  /**
   * Cancels every order of a bot that is or may be working (placed and open, or unresolved); each failure is
   * listed and the rest go on. Recorded as one event
   */
  async cancelAllFor(
    botId: string,
  ): Promise<{ canceled: string[]; failed: Array<{ clientOrderId: string; error: string }> }> {
    const result = {
      canceled: [] as string[],
      failed: [] as Array<{ clientOrderId: string; error: string }>,
    };
    const intents = await this.deps.repo.liveForBot(this.deps.db, botId);
    for (const intent of intents) {
      try {
        await this.cancel(intent.userId, intent.clientOrderId);
        result.canceled.push(intent.clientOrderId);
      } catch (err) {
        result.failed.push({ clientOrderId: intent.clientOrderId, error: message(err) });
      }
    }
    const first = intents[0];
    if (first) {
      await this.deps.repo.insertEvent(this.deps.db, {
        userId: first.userId,
        intentId: null,
        kind: 'bot_cancel_all',
        message: `Bot orders cancelled: ${result.canceled.length}${result.failed.length ? `, ${result.failed.length} failed` : ''}`,
        data: { botId, ...result },
        at: this.#now(),
      });
    }
    return result;
  }

  // ---- account settings ----------------------------------------------------------------------------------------

  /**
   * Sets the user's leverage on `symbol` (`POST /fapi/v1/leverage`), as a live bot does before its first order so
   * the exchange holds the margin it was backtested with. The exchange's refusal is thrown as it came (its words)
   */
  async setLeverage(
    userId: string,
    symbol: string,
    leverage: number,
    environment?: TradingEnvironment,
  ): Promise<{ leverage: number }> {
    const keys = await this.#keys(userId, environment, { opensRisk: true });
    return this.deps.exchange.setLeverage(keys, symbol, leverage);
  }

  /** The account's latest fills on `symbol`, newest first (a bot takes the commissions of fills it missed) */
  async recentTrades(
    userId: string,
    symbol: string,
    limit = 100,
    environment?: TradingEnvironment,
  ): Promise<Trade[]> {
    const keys = await this.#keys(userId, environment);
    return viaExchange(() => this.deps.exchange.trades(keys, symbol, limit));
  }

  /**
   * The account's fills on `symbol` since `since` (ms), oldest first, at most `maxPages` pages of 1000 (weight 5
   * each): a resumed bot's fills before its restart, with their commission. Binance answers a start time with the
   * 7 days after it, so a quiet week is stepped over; then pages follow the last trade id. Cut short (`complete`
   * false) past `maxPages`
   */
  async tradesSince(
    userId: string,
    symbol: string,
    since: number,
    environment?: TradingEnvironment,
    maxPages = TRADE_PAGES_MAX,
  ): Promise<{ trades: Trade[]; complete: boolean }> {
    const keys = await this.#keys(userId, environment);
    const trades: Trade[] = [];
    const now = this.#now();
    let start = since;
    // After a full page the rest follows by trade id, whatever its time
    let byId = false;
    const take = (page: Trade[]) => {
      const last = trades.at(-1);
      trades.push(...page.filter((t) => t.time >= since && (!last || BigInt(t.id) > BigInt(last.id))));
    };
    for (let n = 0; n < maxPages; n++) {
      const last = trades.at(-1);
      if (byId && last) {
        const page = await viaExchange(() =>
          this.deps.exchange.tradesFrom(keys, symbol, nextId(last.id), TRADE_PAGE),
        );
        take(page);
        if (page.length < TRADE_PAGE) return { trades, complete: true };
      } else {
        if (start > now) return { trades, complete: true };
        const from = start;
        const page = await viaExchange(() => this.deps.exchange.tradesSince(keys, symbol, from, TRADE_PAGE));
        take(page);
        // A page short of full ends its 7-day window: the next window starts where this one ends
        if (page.length === TRADE_PAGE) byId = true;
        else start += TRADE_WINDOW_MS;
      }
    }
    return { trades, complete: false };
  }

  // ---- dead-man switch -----------------------------------------------------------------------------------------

  /**
   * Arms the exchange's dead-man switch for the user's `symbol` (`countdownCancelAll`) on `environment`'s account
   * (else the user's current one) and keeps it alive from here (a refresh every third of the countdown): if this
   * process dies or loses the exchange, the exchange cancels the symbol's open orders when the countdown ends. A
   * live bot arms it while it has orders working. The exchange keeps one countdown per (account, symbol), so the
   * switch is owned here per (user, environment, symbol) with the set of its `holder`s (a bot id; `manual` by
   * default): one holder's heartbeat keeps it armed for all of them, and it is disarmed only when the last holder
   * lets go
   */
  async armDeadman(
    userId: string,
    symbol: string,
    countdownMs = this.timings.deadmanCountdownMs,
    holder = MANUAL_HOLDER,
    environment?: TradingEnvironment,
  ): Promise<void> {
    if (!Number.isInteger(countdownMs) || countdownMs < 1_000) {
      throw new HttpError(400, 'VALIDATION_ERROR', 'countdownMs must be a whole number of ms, at least 1000');
    }
    const keys = await this.#keys(userId, environment);
    const k = deadmanKey(userId, keys.environment, symbol);
    const previous = this.#deadman.get(k);
    // The longest countdown any holder asked for: a shorter one would cut another holder's orders early
    const effective = Math.max(countdownMs, previous?.countdownMs ?? 0);
    await viaExchange(() => this.deps.exchange.countdownCancelAll(keys, symbol, effective));
    const holders = previous?.holders ?? new Set<string>();
    holders.add(holder);
    if (previous && previous.countdownMs === effective) return;
    if (previous) clearInterval(previous.timer);
    const timer = setInterval(
      () => {
        void this.refreshDeadman(userId, symbol, keys.environment).catch((err) =>
          this.deps.log.warn({ userId, symbol, err: message(err) }, 'dead-man refresh failed'),
        );
      },
      Math.floor(effective / 3),
    );
    timer.unref();
    this.#deadman.set(k, { countdownMs: effective, timer, holders, environment: keys.environment });
    if (!previous) {
      await this.deps.repo.insertEvent(this.deps.db, {
        userId,
        intentId: null,
        kind: 'deadman',
        message: `Dead-man switch armed on ${symbol}: the exchange cancels its open orders if Kestrel falls silent for ${effective / 1000} s`,
        data: { symbol, countdownMs: effective, armed: true, environment: keys.environment },
        at: this.#now(),
      });
    }
  }

  /** Pushes the armed countdown back to its full length (the heartbeat does this on its own) */
  async refreshDeadman(userId: string, symbol: string, environment?: TradingEnvironment): Promise<void> {
    const keys = await this.#keys(userId, environment);
    const armed = this.#deadman.get(deadmanKey(userId, keys.environment, symbol));
    if (!armed) throw new HttpError(409, 'DEADMAN_NOT_ARMED', `No dead-man switch is armed on ${symbol}`);
    await viaExchange(() => this.deps.exchange.countdownCancelAll(keys, symbol, armed.countdownMs));
  }

  /** Holders of the user's switch on `symbol` in this process (empty when it is not armed here) */
  deadmanHolders(userId: string, symbol: string, environment: TradingEnvironment): string[] {
    return [...(this.#deadman.get(deadmanKey(userId, environment, symbol))?.holders ?? [])];
  }

  /**
   * `holder` lets go of the switch. While other holders remain here, it stays armed and refreshed. When none is
   * left, the heartbeat stops and the exchange's countdown is disarmed (countdownTime 0), unless `keepArmed`: a
   * holder on another server instance still needs it (its own heartbeat keeps it alive). Without a holder, every
   * holder here is dropped (the switch is disarmed outright)
   */
  async disarmDeadman(
    userId: string,
    symbol: string,
    holder?: string,
    options: { keepArmed?: boolean; environment?: TradingEnvironment } = {},
  ): Promise<void> {
    const keys = await this.#keys(userId, options.environment);
    const k = deadmanKey(userId, keys.environment, symbol);
    const armed = this.#deadman.get(k);
    if (armed && holder !== undefined) {
      armed.holders.delete(holder);
      if (armed.holders.size > 0) return;
    }
    if (armed) clearInterval(armed.timer);
    this.#deadman.delete(k);
    if (options.keepArmed) return;
    await viaExchange(() => this.deps.exchange.countdownCancelAll(keys, symbol, 0));
    await this.deps.repo.insertEvent(this.deps.db, {
      userId,
      intentId: null,
      kind: 'deadman',
      message: `Dead-man switch disarmed on ${symbol}`,
      data: { symbol, armed: false, environment: keys.environment },
      at: this.#now(),
    });
  }

  // ---- reading -------------------------------------------------------------------------------------------------

  list(userId: string, filter: 'unresolved' | 'all', limit: number): Promise<StoredIntent[]> {
    return this.deps.repo.list(this.deps.db, userId, filter, limit);
  }

  events(userId: string, limit: number): Promise<OrderEvent[]> {
    return this.deps.repo.events(this.deps.db, userId, limit);
  }

  /**
   * Keeps an intent's order up to date after a change made outside the manager (a manual cancel through the
   * futures routes); orders Kestrel did not place are ignored
   */
  async noteOrder(userId: string, order: Order): Promise<void> {
    const intent = await this.deps.repo.byClientId(this.deps.db, userId, order.clientOrderId);
    if (intent?.state === 'placed')
      await this.deps.repo.update(this.deps.db, intent.id, { order, at: this.#now() });
  }

  // ---- life ----------------------------------------------------------------------------------------------------

  /**
   * At start: every user with unresolved or open intents is reconciled (their unknown orders looked up, their
   * placed ones re-read, foreign orders reported), then the periodic sweep begins. Failures are logged; the sweep
   * tries again
   */
  async start(): Promise<void> {
    for (const { userId, environment } of await this.deps.repo.usersToReconcile(this.deps.db)) {
      if (this.#stopped) return;
      try {
        await this.reconcile(userId, undefined, environment);
      } catch (err) {
        this.deps.log.warn(
          { userId, environment, err: message(err) },
          'start-up order reconciliation failed',
        );
      }
    }
    if (this.#stopped) return;
    this.#sweepTimer = setInterval(() => {
      void this.sweep().catch((err) => this.deps.log.error({ err: message(err) }, 'order sweep failed'));
    }, this.timings.sweepIntervalMs);
    this.#sweepTimer.unref();
  }

  /**
   * Stops lookups, the sweep and dead-man heartbeats. The exchange's countdowns stay armed on purpose: a server
   * that stops stops watching its bots' orders, so the exchange cancels them when the countdown ends
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#sweepTimer) clearInterval(this.#sweepTimer);
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
    for (const d of this.#deadman.values()) clearInterval(d.timer);
    this.#deadman.clear();
    await this.#sweeping;
  }

  async #event(intent: StoredIntent, kind: string, text: string): Promise<void> {
    await this.deps.repo.insertEvent(this.deps.db, {
      userId: intent.userId,
      intentId: intent.id,
      kind,
      message: text,
      data: { clientOrderId: intent.clientOrderId, state: intent.state, source: intent.source },
      at: this.#now(),
    });
  }
}
