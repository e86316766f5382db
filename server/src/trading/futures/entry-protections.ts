import type { CreateOrderRequest, EntryProtection, EntryProtectionRecord } from '@kestrel/contracts';
import { Decimal } from 'decimal.js';
import type { FastifyBaseLogger } from 'fastify';
import type { CredentialsService } from '../../core/credentials/credentials-service';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeAdapter, Order } from '../../core/exchange/exchange-adapter';
import type { Clock, Timer } from '../../lib/clock';
import type { Queryable } from '../../lib/database/database';
import { HttpError } from '../../lib/http-error';
import { protectionClientOrderId } from '../orders/client-order-id';
import type { OrderManager } from '../orders/order-manager';
import type { EntryProtectionRepository, StoredProtection } from './entry-protection-repository';

/** How often waiting entries are looked up on the exchange (a filled LIMIT entry waits at most this long) */
export const PROTECTION_CHECK_MS = 2_000;
/** Sends proven never to have reached the exchange are tried again this many times, then it is failed */
export const PROTECTION_MAX_ATTEMPTS = 3;
/** Waiting entries looked at per check (the oldest first) */
const CHECK_BATCH = 100;
const FINAL = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED', 'FINISHED']);
const WORDS = { takeProfit: 'take-profit', stopLoss: 'stop-loss' } as const;
type Kind = keyof typeof WORDS;

export interface EntryProtectionDeps {
  db: Queryable;
  repo: EntryProtectionRepository;
  orders: Pick<OrderManager, 'place' | 'intentOf'>;
  exchange: Pick<ExchangeAdapter, 'findOrder'>;
  credentials: Pick<CredentialsService, 'keysFor'>;
  /** The last price of a symbol on the account's environment: what a MARKET entry's TP/SL are checked against */
  lastPrice: (account: TradingAccount, symbol: string) => Promise<string>;
  /** Tells the user that a filled entry's TP/SL could not be placed (their position is not protected) */
  notifyFailure: (userId: string, title: string, message: string) => Promise<void>;
  clock: Clock;
  log: FastifyBaseLogger;
  checkMs?: number;
}

/**
 * TP/SL attached to a manual entry. Binance's API has no attached orders, so the server keeps them (a row per entry,
 * written before the entry is sent) and places them itself once the entry has filled, at all: each a close-position
 * conditional order on the closing side, fired by the mark price. The row survives restarts; every instance looks
 * at the waiting ones, and the TP/SL's client order ids are derived from the entry's, so two instances (or a check
 * racing the sweep) place each once. What happened is on the row, and a failure is also a notification
 */
export class EntryProtections {
  readonly #d: EntryProtectionDeps;
  readonly #busy = new Set<string>();
  #timer: Timer | undefined;
  #sweeping: Promise<void> | undefined;

  constructor(deps: EntryProtectionDeps) {
    this.#d = deps;
  }

  /**
   * What is wrong with the TP/SL for this entry, as a 400: an entry only (LIMIT or MARKET, not reducing), each on
   * its side of the entry's price (the limit price, a MARKET entry's last price) so it cannot fire at once
   */
  async check(account: TradingAccount, order: CreateOrderRequest, p: EntryProtection): Promise<void> {
    const invalid = (message: string) => new HttpError(400, 'VALIDATION_ERROR', message);
    if (order.type !== 'LIMIT' && order.type !== 'MARKET') {
      throw invalid('A take-profit or stop-loss can be attached to a LIMIT or MARKET entry only');
    }
    if (order.reduceOnly || order.closePosition) {
      throw invalid('A reduce-only order opens nothing to protect: set the TP/SL on the position instead');
    }
    const reference =
      order.type === 'LIMIT' && order.price !== undefined
        ? new Decimal(order.price)
        : new Decimal(await this.#d.lastPrice(account, order.symbol));
    const long = order.side === 'BUY';
    const what = order.type === 'LIMIT' ? `its limit price ${order.price}` : `the last price ${reference}`;
    const side = long ? 'long' : 'short';
    if (p.takeProfit !== undefined) {
      const above = new Decimal(p.takeProfit).gt(reference);
      if (above !== long) {
        throw invalid(`A ${side} entry's take-profit must be ${long ? 'above' : 'below'} ${what}`);
      }
    }
    if (p.stopLoss !== undefined) {
      const below = new Decimal(p.stopLoss).lt(reference);
      if (below !== long) {
        throw invalid(`A ${side} entry's stop-loss must be ${long ? 'below' : 'above'} ${what}`);
      }
    }
  }

  /** Records the TP/SL of an entry about to be sent under `entryClientOrderId` (the same entry again: the first) */
  attach(
    account: TradingAccount,
    order: CreateOrderRequest,
    entryClientOrderId: string,
    p: EntryProtection,
  ): Promise<StoredProtection> {
    return this.#d.repo.claim(this.#d.db, {
      userId: account.userId,
      environment: account.environment,
      symbol: order.symbol,
      entryClientOrderId,
      closingSide: order.side === 'BUY' ? 'SELL' : 'BUY',
      positionSide: order.positionSide ?? 'BOTH',
      takeProfit: p.takeProfit,
      stopLoss: p.stopLoss,
      at: this.#d.clock.now().getTime(),
    });
  }

  /** The entry could not be sent at all (bad input, no keys): nothing will fill, nothing is placed */
  async abandon(p: StoredProtection, why: string): Promise<void> {
    await this.#settle(p, 'canceled', `The entry was not placed: ${why}`);
  }

  list(account: TradingAccount, limit = 50): Promise<EntryProtectionRecord[]> {
    return this.#d.repo.list(this.#d.db, account, limit).then((rows) => rows.map(publicRecord));
  }

  /**
   * Looks at one waiting entry and acts: its TP/SL placed once it has filled at all, the row canceled once it
   * ended without a fill or was never placed; else it keeps waiting. `entry`: the order as just answered (skips a
   * lookup). Never throws: a failed look is tried again by the next sweep
   */
  async follow(p: StoredProtection, entry?: Order): Promise<void> {
    if (p.state !== 'waiting' || this.#busy.has(p.id)) return;
    this.#busy.add(p.id);
    try {
      const account: TradingAccount = { userId: p.userId, environment: p.environment };
      const intent = await this.#d.orders.intentOf(p.userId, p.entryClientOrderId);
      if (!intent) return; // claimed before the entry's intent: the entry is being sent right now
      if (intent.state === 'rejected' || intent.state === 'not_placed') {
        await this.#settle(p, 'canceled', `The entry was not placed: ${intent.reason ?? intent.state}`);
        return;
      }
      if (intent.state !== 'placed' && intent.state !== 'unknown') return;
      const order = entry ?? (await this.#lookUp(account, p));
      if (!order) return;
      if (new Decimal(order.executedQuantity).gt(0)) {
        await this.#protect(account, p);
      } else if (FINAL.has(order.status)) {
        await this.#settle(p, 'canceled', `The entry ended ${order.status.toLowerCase()} without a fill`);
      }
    } catch (err) {
      this.#d.log.warn(
        { protection: p.id, err: err instanceof Error ? err.message : String(err) },
        'entry protection check failed; the next sweep tries again',
      );
    } finally {
      this.#busy.delete(p.id);
    }
  }

  /** Starts the sweep over every waiting entry (every instance runs one; placing is idempotent) */
  start(): void {
    this.#timer ??= this.#d.clock.every(
      this.#d.checkMs ?? PROTECTION_CHECK_MS,
      () => {
        this.#sweeping ??= this.sweep().finally(() => {
          this.#sweeping = undefined;
        });
      },
      { unref: true },
    );
  }

  async stop(): Promise<void> {
    this.#timer?.cancel();
    this.#timer = undefined;
    await this.#sweeping;
  }

  async sweep(): Promise<void> {
    const waiting = await this.#d.repo.waiting(this.#d.db, CHECK_BATCH).catch((err: unknown) => {
      this.#d.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'entry protection sweep failed',
      );
      return [];
    });
    for (const p of waiting) await this.follow(p);
  }

  async #lookUp(account: TradingAccount, p: StoredProtection): Promise<Order | undefined> {
    const keys = await this.#d.credentials.keysFor(account);
    return this.#d.exchange.findOrder(keys, p.symbol, p.entryClientOrderId, 'order');
  }

  /**
   * Places the TP and/or SL through the order manager (its pre-trade pipeline lets closing orders through; each
   * recorded as an intent before it is sent). An order proven never sent is tried again by a later sweep under a
   * new id; one the exchange refused fails the row, and the user is told their position is not protected
   */
  async #protect(account: TradingAccount, p: StoredProtection): Promise<void> {
    const kinds: Kind[] = [];
    if (p.takeProfit !== null) kinds.push('takeProfit');
    if (p.stopLoss !== null) kinds.push('stopLoss');
    const refused: string[] = [];
    let unsent = false;
    for (const kind of kinds) {
      const intent = await this.#d.orders.place({
        account,
        source: 'manual',
        clientOrderId: protectionClientOrderId(p.entryClientOrderId, kind, p.attempts),
        order: {
          symbol: p.symbol,
          side: p.closingSide,
          type: kind === 'takeProfit' ? 'TAKE_PROFIT_MARKET' : 'STOP_MARKET',
          triggerPrice: (kind === 'takeProfit' ? p.takeProfit : p.stopLoss) ?? undefined,
          closePosition: true,
          workingType: 'MARK_PRICE',
          ...(p.positionSide === 'BOTH' ? {} : { positionSide: p.positionSide }),
        },
      });
      if (intent.state === 'rejected') refused.push(`its ${WORDS[kind]} was refused: ${intent.reason ?? ''}`);
      if (intent.state === 'not_placed') unsent = true;
    }
    if (refused.length > 0) {
      const detail = `The entry filled but ${refused.join('; ')}`;
      await this.#fail(p, detail);
      return;
    }
    if (unsent) {
      // Proven never sent (a refused connection, a rate limit): a new attempt, under new ids, at the next sweep
      const attempts = p.attempts + 1;
      if (attempts < PROTECTION_MAX_ATTEMPTS) {
        await this.#d.repo.settle(this.#d.db, p.id, {
          state: 'waiting',
          attempts,
          detail: 'Could not reach the exchange; trying again',
          at: this.#d.clock.now().getTime(),
        });
        return;
      }
      const detail = `The entry filled but its TP/SL could not be sent after ${attempts} attempts`;
      await this.#fail(p, detail);
      return;
    }
    await this.#settle(p, 'placed', null);
  }

  /** The entry filled but its TP/SL is not on the exchange: the row says why, and the user is told once */
  async #fail(p: StoredProtection, detail: string): Promise<void> {
    if (!(await this.#settle(p, 'failed', detail))) return;
    await this.#d.notifyFailure(
      p.userId,
      `${p.symbol}: TP/SL not placed`,
      `${detail}. The position is not protected: set its TP/SL on the position.`,
    );
  }

  async #settle(
    p: StoredProtection,
    state: 'placed' | 'failed' | 'canceled',
    detail: string | null,
  ): Promise<boolean> {
    const done = await this.#d.repo.settle(this.#d.db, p.id, {
      state,
      detail,
      at: this.#d.clock.now().getTime(),
    });
    return done !== undefined;
  }
}

/** The row as the page reads it (who owns it and how it is sent stay on the server) */
function publicRecord(p: StoredProtection): EntryProtectionRecord {
  return {
    id: p.id,
    symbol: p.symbol,
    entryClientOrderId: p.entryClientOrderId,
    takeProfit: p.takeProfit,
    stopLoss: p.stopLoss,
    state: p.state,
    detail: p.detail,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}
