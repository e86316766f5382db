import type { CreateOrderRequest, OrderEvent, OrderIntentSource, ReconcileReport } from '@kestrel/contracts';
import type { TradingAccount } from '../../core/environment/trading-account';
import {
  ExchangeApiError,
  isConditionalType,
  type Order,
  type Trade,
} from '../../core/exchange/exchange-adapter';
import { exchangeHttpError, viaExchange } from '../../core/exchange/exchange-http-error';
import type { Timer } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import type { OrderOrigin, PreTradeRecord, Verdict } from '../risk/pre-trade/verdict';
import { firstRefusal } from '../risk/pre-trade/verdict';
import { AccountSettings } from './account-settings';
import { botClientOrderId, manualClientOrderId } from './client-order-id';
import { DeadmanSwitch } from './deadman-switch';
import { IntentResolver } from './intent-resolver';
import {
  accountOfIntent,
  describe,
  message,
  OrderContext,
  type OrderDeps,
  type OrderTimings,
  UNRESOLVED,
} from './order-context';
import type { StoredIntent } from './order-intent-repository';
import { OrderTracker } from './order-tracker';
import { Reconciler } from './reconcile';
import { TradeCatchUp } from './trade-catch-up';

export { DEFAULT_ORDER_TIMINGS, type OrderTimings } from './order-context';

/** An order to place: on which account, for which bot, under which key */
export interface PlaceIntent {
  /** Where it goes: a bot's account (its owner on its environment), or the account the request resolved */
  account: TradingAccount;
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
  /** Which pre-trade checks judge it, when not told by `source` (an agent's orders are a bot's with its rules) */
  origin?: OrderOrigin;
  /** Verdicts of the checks the caller ran already (a bot's limits at its strategy's submit), recorded with the rest */
  checked?: readonly Verdict[];
}

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
export class OrderManager {
  readonly #ctx: OrderContext;
  readonly #resolver: IntentResolver;
  readonly #reconciler: Reconciler;
  readonly #deadman: DeadmanSwitch;
  readonly #trades: TradeCatchUp;
  readonly #settings: AccountSettings;
  #sweepTimer: Timer | undefined;
  #stopped = false;
  /** The truth about the orders live bots follow, fed by every intent row written here and by the user stream */
  readonly tracker = new OrderTracker();
  readonly timings: OrderTimings;

  constructor(deps: OrderDeps) {
    this.#ctx = new OrderContext(deps, this.tracker);
    this.timings = this.#ctx.timings;
    this.#resolver = new IntentResolver(this.#ctx);
    this.#reconciler = new Reconciler(this.#ctx, this.#resolver);
    this.#deadman = new DeadmanSwitch(this.#ctx);
    this.#trades = new TradeCatchUp(this.#ctx);
    this.#settings = new AccountSettings(this.#ctx);
  }

  // ---- placing --------------------------------------------------------------------------------------------------

  /**
   * Records, checks and sends an order once. Answers the intent as it stands: `placed` (with the exchange's order),
   * `rejected` / `not_placed` (with the reason), or `unknown` (being resolved; it never gets sent again). The same
   * key asked again answers the first intent (looked up again when still unresolved) without sending anything; the
   * same key for a different order is a 409. Throws only for bad input (400) and missing keys (400)
   */
  async place(input: PlaceIntent): Promise<StoredIntent> {
    const { account, order } = input;
    const { userId } = account;
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
    const keys = await this.#ctx.keys(account, { opensRisk: !closing });
    const request: CreateOrderRequest = { ...order, clientOrderId };
    const { intent, created } = await this.#ctx.repo.claim(this.#ctx.db, {
      userId,
      environment: keys.environment,
      botId: input.botId ?? null,
      source: input.source,
      clientOrderId,
      kind: isConditionalType(order.type) ? 'conditional' : 'order',
      request,
      at: this.#ctx.now(),
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
      if (UNRESOLVED.includes(intent.state)) return this.#resolver.resolveQuietly(intent, keys);
      // A bot that asks again for an intent proven absent (its process stopped before sending, or the exchange
      // never got it) gets it sent now, under the same id: nothing of it exists on the exchange to duplicate.
      // A manual order keeps its first outcome (the page makes a new key for a new submit)
      if (intent.state !== 'not_placed' || input.source !== 'bot') return intent;
      const reopened = await this.#ctx.repo.update(
        this.#ctx.db,
        intent.id,
        { state: 'pending', at: this.#ctx.now() },
        ['not_placed'],
      );
      if (!reopened) return (await this.#ctx.repo.byId(this.#ctx.db, intent.id)) ?? intent;
      current = reopened;
    }

    let preTrade: PreTradeRecord;
    try {
      preTrade = await this.#ctx.guard.judge({
        origin: input.origin ?? input.source,
        userId,
        keys,
        order: request,
        checked: input.checked,
      });
    } catch (err) {
      // The figures could not be read: nothing was judged, nothing sent
      const http = err instanceof HttpError ? err : exchangeHttpError(err);
      const refused = http instanceof HttpError && http.statusCode === 422;
      return this.#resolver.settle(current, refused ? 'rejected' : 'not_placed', http, ['pending']);
    }
    const refusal = firstRefusal(preTrade.verdicts);
    if (refusal) {
      return this.#resolver.settle(
        current,
        'rejected',
        new HttpError(422, refusal.code, refusal.reason),
        ['pending'],
        preTrade,
      );
    }

    const sentAt = this.#ctx.now();
    const sending = await this.#ctx.repo.update(
      this.#ctx.db,
      current.id,
      {
        state: 'sending',
        sentAt,
        // The sweep leaves it to this call until our client has certainly given up on the answer
        nextCheckAt: sentAt + this.#ctx.timings.answerWindowMs,
        preTrade,
        at: sentAt,
      },
      ['pending'],
    );
    // Another process judged it stale meanwhile (it cannot have sent it: only this call sends)
    if (!sending) return (await this.#ctx.repo.byId(this.#ctx.db, current.id)) ?? current;

    let placed: Order;
    try {
      placed = await this.#ctx.exchange.placeOrder(keys, request);
    } catch (err) {
      return this.#resolver.afterSendFailure(sending, err);
    }
    // A lookup may have raced us to 'unknown', or (a send held back by the weight limit past the answer window)
    // to 'not_placed': the exchange's own answer settles it either way
    const done = await this.#ctx.repo.update(
      this.#ctx.db,
      current.id,
      { state: 'placed', order: placed, nextCheckAt: null, at: this.#ctx.now() },
      ['sending', 'unknown', 'not_placed'],
    );
    this.#resolver.cancelTimer(current.id);
    return done ?? (await this.#ctx.repo.byId(this.#ctx.db, current.id)) ?? sending;
  }

  // ---- resolving ------------------------------------------------------------------------------------------------

  /** Resolves one intent by id (a lookup by client order id when its outcome is unknown); answers it as it stands */
  resolve(intentId: string): Promise<StoredIntent | undefined> {
    return this.#resolver.resolve(intentId);
  }

  /** Looks up every unresolved intent that is due (all users); overlapping calls share one pass */
  sweep(): Promise<void> {
    return this.#resolver.sweep();
  }

  /** See `Reconciler.reconcile`: a bot calls it before it starts */
  reconcile(account: TradingAccount, symbol?: string): Promise<ReconcileReport> {
    return this.#reconciler.reconcile(account, symbol);
  }

  // ---- cancelling ----------------------------------------------------------------------------------------------

  /**
   * Cancels the order of an intent by its client order id (which also reaches an order whose outcome was unknown);
   * an order that is no longer open is re-read instead. Answers the intent as it now stands. The user only proves
   * ownership: the cancel goes to the account the intent was sent on (its recorded environment)
   */
  async cancel(userId: string, clientOrderId: string): Promise<StoredIntent> {
    const intent = await this.#ctx.repo.byClientId(this.#ctx.db, userId, clientOrderId);
    if (!intent)
      throw new HttpError(404, 'ORDER_NOT_FOUND', `No Kestrel order with client id ${clientOrderId}`);
    const keys = await this.#ctx.keys(accountOfIntent(intent));
    try {
      const order = await this.#ctx.exchange.cancelOrder(keys, intent.symbol, {
        clientOrderId,
        kind: intent.kind,
      });
      const updated = await this.#ctx.repo.update(this.#ctx.db, intent.id, {
        state: 'placed',
        order,
        nextCheckAt: null,
        at: this.#ctx.now(),
      });
      this.#resolver.cancelTimer(intent.id);
      return updated ?? intent;
    } catch (err) {
      const missing = err instanceof ExchangeApiError && (err.code === -2011 || err.code === -2013);
      if (!missing) throw exchangeHttpError(err);
      // Not open (filled, cancelled) or never placed: the lookup says which
      const after = UNRESOLVED.includes(intent.state)
        ? await this.#resolver.resolveWith(intent, keys)
        : intent;
      if (after.state !== 'placed') return after;
      const order = await viaExchange(() =>
        this.#ctx.exchange.findOrder(keys, intent.symbol, clientOrderId, intent.kind),
      );
      if (!order) return after;
      return (await this.#ctx.repo.update(this.#ctx.db, intent.id, { order, at: this.#ctx.now() })) ?? after;
    }
  }

  /**
   * Cancels every order of a bot that is or may be working (placed and open, or unresolved); each failure is
   * listed and the rest go on. One the exchange had already filled (a paused bot's, which no session followed) is
   * listed as `filled`, not canceled. Recorded as one event
   */
  async cancelAllFor(botId: string): Promise<{
    canceled: string[];
    filled: string[];
    failed: Array<{ clientOrderId: string; error: string }>;
  }> {
    const result = {
      canceled: [] as string[],
      filled: [] as string[],
      failed: [] as Array<{ clientOrderId: string; error: string }>,
    };
    const intents = await this.#ctx.repo.liveForBot(this.#ctx.db, botId);
    for (const intent of intents) {
      try {
        const after = await this.cancel(intent.userId, intent.clientOrderId);
        if (after.order?.status === 'FILLED') result.filled.push(intent.clientOrderId);
        else result.canceled.push(intent.clientOrderId);
      } catch (err) {
        result.failed.push({ clientOrderId: intent.clientOrderId, error: message(err) });
      }
    }
    const first = intents[0];
    if (first) {
      await this.#ctx.repo.insertEvent(this.#ctx.db, {
        userId: first.userId,
        intentId: null,
        kind: 'bot_cancel_all',
        message: `Bot orders cancelled: ${result.canceled.length}${result.failed.length ? `, ${result.failed.length} failed` : ''}`,
        data: { botId, ...result },
        at: this.#ctx.now(),
      });
    }
    return result;
  }

  // ---- account settings and trades -----------------------------------------------------------------------------

  /** See `AccountSettings`: leverage, margin type and isolated margin, each asked like an order and recorded */
  setLeverage(
    account: TradingAccount,
    symbol: string,
    leverage: number,
  ): Promise<{ symbol: string; leverage: number }> {
    return this.#settings.setLeverage(account, symbol, leverage);
  }

  setMarginType(
    account: TradingAccount,
    symbol: string,
    marginType: 'cross' | 'isolated',
  ): Promise<{ symbol: string; marginType: 'cross' | 'isolated' }> {
    return this.#settings.setMarginType(account, symbol, marginType);
  }

  changePositionMargin(
    account: TradingAccount,
    change: Parameters<AccountSettings['changePositionMargin']>[1],
  ): Promise<void> {
    return this.#settings.changePositionMargin(account, change);
  }

  /** The account's latest fills on `symbol`, newest first (a bot takes the commissions of fills it missed) */
  recentTrades(account: TradingAccount, symbol: string, limit = 100): Promise<Trade[]> {
    return this.#trades.recentTrades(account, symbol, limit);
  }

  /** See `TradeCatchUp.tradesSince`: a resumed bot's fills since its start, oldest first */
  tradesSince(
    account: TradingAccount,
    symbol: string,
    since: number,
    maxPages?: number,
  ): Promise<{ trades: Trade[]; complete: boolean }> {
    return this.#trades.tradesSince(account, symbol, since, maxPages);
  }

  // ---- dead-man switch (see `DeadmanSwitch`) -------------------------------------------------------------------

  armDeadman(account: TradingAccount, symbol: string, countdownMs?: number, holder?: string): Promise<void> {
    return this.#deadman.arm(account, symbol, countdownMs, holder);
  }

  refreshDeadman(account: TradingAccount, symbol: string): Promise<void> {
    return this.#deadman.refresh(account, symbol);
  }

  deadmanHolders(account: TradingAccount, symbol: string): string[] {
    return this.#deadman.holders(account, symbol);
  }

  disarmDeadman(
    account: TradingAccount,
    symbol: string,
    holder?: string,
    options: { keepArmed?: boolean } = {},
  ): Promise<void> {
    return this.#deadman.disarm(account, symbol, holder, options);
  }

  // ---- reading -------------------------------------------------------------------------------------------------

  list(userId: string, filter: 'unresolved' | 'all', limit: number): Promise<StoredIntent[]> {
    return this.#ctx.repo.list(this.#ctx.db, userId, filter, limit);
  }

  events(userId: string, limit: number): Promise<OrderEvent[]> {
    return this.#ctx.repo.events(this.#ctx.db, userId, limit);
  }

  /** The user's intent under this client order id, as stored now (undefined: Kestrel never recorded it) */
  intentOf(userId: string, clientOrderId: string): Promise<StoredIntent | undefined> {
    return this.#ctx.repo.byClientId(this.#ctx.db, userId, clientOrderId);
  }

  /**
   * A bot's intents with these client order ids, as stored (another instance may have moved them): each handed to
   * the tracker too, so the bot's view follows
   */
  async ofBot(botId: string, clientOrderIds: readonly string[]): Promise<StoredIntent[]> {
    const intents = await this.#ctx.repo.ofBot(this.#ctx.db, botId, clientOrderIds);
    for (const intent of intents) this.tracker.noteIntent(intent);
    return intents;
  }

  /**
   * Keeps an intent's order up to date after a change made outside the manager (a manual cancel through the
   * futures routes); orders Kestrel did not place are ignored
   */
  async noteOrder(userId: string, order: Order): Promise<void> {
    const intent = await this.#ctx.repo.byClientId(this.#ctx.db, userId, order.clientOrderId);
    if (intent?.state === 'placed')
      await this.#ctx.repo.update(this.#ctx.db, intent.id, { order, at: this.#ctx.now() });
  }

  // ---- life ----------------------------------------------------------------------------------------------------

  /**
   * At start: every user with unresolved or open intents is reconciled (their unknown orders looked up, their
   * placed ones re-read, foreign orders reported), then the periodic sweep begins. Failures are logged; the sweep
   * tries again
   */
  async start(): Promise<void> {
    for (const { userId, environment } of await this.#ctx.repo.usersToReconcile(this.#ctx.db)) {
      if (this.#stopped) return;
      try {
        await this.#reconciler.reconcile({ userId, environment });
      } catch (err) {
        this.#ctx.log.warn(
          { userId, environment, err: message(err) },
          'start-up order reconciliation failed',
        );
      }
    }
    if (this.#stopped) return;
    this.#sweepTimer = this.#ctx.clock.every(
      this.#ctx.timings.sweepIntervalMs,
      () => {
        void this.sweep().catch((err) => this.#ctx.log.error({ err: message(err) }, 'order sweep failed'));
      },
      { unref: true },
    );
  }

  /**
   * Stops lookups, the sweep and dead-man heartbeats. The exchange's countdowns stay armed on purpose: a server
   * that stops stops watching its bots' orders, so the exchange cancels them when the countdown ends
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#sweepTimer?.cancel();
    this.#deadman.stop();
    await this.#resolver.stop();
  }
}
