import type { OrderIntentState } from '@kestrel/contracts';
import {
  ExchangeApiError,
  type ExchangeKeys,
  ExchangeRateLimitError,
  ExchangeUnavailableError,
  LostOrderNotFoundError,
  type Order,
  OrderStatusUnknownError,
} from '../../core/exchange/exchange-adapter';
import { exchangeHttpError } from '../../core/exchange/exchange-http-error';
import type { Timer } from '../../lib/clock';
import { HttpError } from '../../lib/http-error';
import type { PreTradeRecord } from '../risk/pre-trade/verdict';
import { accountOfIntent, describe, message, type OrderContext, UNRESOLVED } from './order-context';
import type { StoredIntent } from './order-intent-repository';

/**
 * Settles intents: a refusal or a proven absence stored with its HTTP answer, a lost answer made `unknown`, and
 * every unknown outcome resolved by asking the exchange (by client order id), never by sending again: right away,
 * then with backoff on the clock, and on the periodic sweep over all users
 */
export class IntentResolver {
  readonly #timers = new Map<string, Timer>();
  #sweeping: Promise<void> | undefined;
  #stopped = false;

  constructor(private readonly ctx: OrderContext) {}

  /** Stores a refusal or a proven "not placed" with the HTTP answer it gets, so a repeat answers the same */
  async settle(
    intent: StoredIntent,
    state: 'rejected' | 'not_placed',
    err: unknown,
    from: readonly OrderIntentState[],
    preTrade?: PreTradeRecord,
  ): Promise<StoredIntent> {
    const { ctx } = this;
    const http = err instanceof HttpError ? err : undefined;
    const updated = await ctx.repo.update(
      ctx.db,
      intent.id,
      {
        state,
        reason: message(err),
        errorStatus: http?.statusCode ?? 503,
        errorCode: http?.code ?? 'ORDER_NOT_PLACED',
        nextCheckAt: null,
        ...(preTrade ? { preTrade } : {}),
        at: ctx.now(),
      },
      from,
    );
    return updated ?? ctx.current(intent);
  }

  /** The POST failed: refused or proven not sent, else (its answer lost) unknown and looked up */
  async afterSendFailure(intent: StoredIntent, err: unknown): Promise<StoredIntent> {
    const { ctx } = this;
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
      return this.settle(intent, state, http, ['sending', 'unknown']);
    }
    const now = ctx.now();
    const unknown = await ctx.repo.update(
      ctx.db,
      intent.id,
      { state: 'unknown', lastError: message(err), nextCheckAt: now + this.#backoff(0), at: now },
      ['sending'],
    );
    ctx.log.warn(
      { intentId: intent.id, clientOrderId: intent.clientOrderId, err: message(err) },
      'order answer lost: status unknown, resolving by lookup',
    );
    this.#schedule(intent.id, this.#backoff(0));
    return unknown ?? ctx.current(intent);
  }

  /** Resolves one intent by id (a lookup by client order id when its outcome is unknown); answers it as it stands */
  async resolve(intentId: string): Promise<StoredIntent | undefined> {
    const { ctx } = this;
    const intent = await ctx.repo.byId(ctx.db, intentId);
    if (!intent || !UNRESOLVED.includes(intent.state)) return intent;
    let keys: ExchangeKeys;
    try {
      keys = await ctx.keys(accountOfIntent(intent));
    } catch (err) {
      return this.#stillUnknown(intent, err);
    }
    return this.resolveWith(intent, keys);
  }

  /** `resolveWith`, a failure logged and the intent answered as it was */
  async resolveQuietly(intent: StoredIntent, keys: ExchangeKeys): Promise<StoredIntent> {
    try {
      return await this.resolveWith(intent, keys);
    } catch (err) {
      this.ctx.log.error({ intentId: intent.id, err: message(err) }, 'order lookup failed');
      return intent;
    }
  }

  async resolveWith(intent: StoredIntent, keys: ExchangeKeys): Promise<StoredIntent> {
    const { ctx } = this;
    const now = ctx.now();
    if (intent.state === 'pending') {
      // Only the call that recorded it sends it; once stale, that call is gone and nothing was sent
      if (now - intent.updatedAt < ctx.timings.pendingStaleMs) return intent;
      const done = await this.settle(
        intent,
        'not_placed',
        new HttpError(
          503,
          'ORDER_NOT_PLACED',
          'The server stopped before sending this order; it was not placed',
        ),
        ['pending'],
      );
      await ctx.event(
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
      found = await ctx.exchange.findOrder(keys, intent.symbol, intent.clientOrderId, intent.kind);
    } catch (err) {
      return this.#stillUnknown(intent, err);
    }
    if (found) {
      const done = await ctx.repo.update(
        ctx.db,
        intent.id,
        { state: 'placed', order: found, nextCheckAt: null, lastError: null, attempt: true, at: now },
        UNRESOLVED,
      );
      if (!done) return ctx.current(intent);
      this.cancelTimer(intent.id);
      await ctx.event(
        done,
        'resolved',
        `Order ${describe(intent.request)} (${intent.clientOrderId}) was placed: the exchange has it (${found.status})`,
      );
      return done;
    }
    const sentAt = intent.sentAt ?? intent.createdAt;
    if (now - sentAt < ctx.timings.answerWindowMs) {
      // The request may still arrive within the exchange's window: not found yet proves nothing
      return this.#stillUnknown(
        intent,
        new Error('not on the exchange yet'),
        sentAt + ctx.timings.answerWindowMs,
      );
    }
    const done = await ctx.repo.update(
      ctx.db,
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
    if (!done) return ctx.current(intent);
    this.cancelTimer(intent.id);
    await ctx.event(
      done,
      'resolved',
      `Order ${describe(intent.request)} (${intent.clientOrderId}) was not placed: the exchange has no such order`,
    );
    return done;
  }

  /** Another lookup later (backoff by attempts made, not before `notBefore`) */
  async #stillUnknown(intent: StoredIntent, err: unknown, notBefore = 0): Promise<StoredIntent> {
    const { ctx } = this;
    const now = ctx.now();
    const next = Math.max(now + this.#backoff(intent.attempts + 1), notBefore);
    const updated = await ctx.repo.update(
      ctx.db,
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

  #backoff(attempt: number): number {
    const steps = this.ctx.timings.backoffMs;
    return steps[Math.min(attempt, steps.length - 1)] ?? 30_000;
  }

  #schedule(intentId: string, delayMs: number): void {
    if (this.#stopped) return;
    this.cancelTimer(intentId);
    const timer = this.ctx.clock.after(
      delayMs,
      () => {
        this.#timers.delete(intentId);
        void this.resolve(intentId).catch((err) =>
          this.ctx.log.error({ intentId, err: message(err) }, 'order lookup failed'),
        );
      },
      { unref: true },
    );
    this.#timers.set(intentId, timer);
  }

  /** The intent was settled another way (the POST's own answer, a cancel): its next lookup is dropped */
  cancelTimer(intentId: string): void {
    this.#timers.get(intentId)?.cancel();
    this.#timers.delete(intentId);
  }

  /** Looks up every unresolved intent that is due (all users); overlapping calls share one pass */
  sweep(): Promise<void> {
    this.#sweeping ??= this.#sweepOnce().finally(() => {
      this.#sweeping = undefined;
    });
    return this.#sweeping;
  }

  async #sweepOnce(): Promise<void> {
    const { ctx } = this;
    const due = await ctx.repo.unresolved(ctx.db, { dueBy: ctx.now() });
    for (const intent of due) {
      if (this.#stopped) return;
      try {
        await this.resolve(intent.id);
      } catch (err) {
        ctx.log.error({ intentId: intent.id, err: message(err) }, 'order sweep: lookup failed');
      }
    }
  }

  /** No more lookups; a sweep under way finishes first */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const t of this.#timers.values()) t.cancel();
    this.#timers.clear();
    await this.#sweeping;
  }
}
