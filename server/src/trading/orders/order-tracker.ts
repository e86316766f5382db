import type { OrderIntentState } from '@kestrel/contracts';
import type { Trade } from '../../core/exchange/exchange-adapter';
import type { AlgoOrderUpdateEvent, OrderUpdateEvent } from '../../core/exchange/exchange-streams';
import type { StoredIntent } from './order-intent-repository';

/** One fill of a tracked order, as the exchange booked it (told apart from every other by its trade id) */
export interface TrackedFill {
  tradeId: string;
  quantity: number;
  price: number;
  /** In `commissionAsset` (USDT, or BNB with the account's fee discount on) */
  commission: number;
  commissionAsset: string;
  time: number;
  /** Where it was first heard of: the user-data stream, or a REST read of the account's trades */
  via: 'stream' | 'exchange';
}

/** What is known of one order, by client order id: the intent's state, the exchange's state, its fills */
export interface TrackedOrder {
  readonly userId: string;
  readonly clientOrderId: string;
  readonly botId: string | null;
  /** The order manager's state of the intent (placed once the exchange has it) */
  readonly intentState: OrderIntentState;
  /** The refusal, for a rejected or not-placed intent */
  readonly reason: string | null;
  /** The exchange's id of the order (its trades name it), once known */
  readonly exchangeOrderId: string | undefined;
  /**
   * A conditional order that fired: the id of the order its trigger placed. From then on its state and its fills
   * are that order's (whose own client id is the exchange's, not ours)
   */
  readonly triggeredOrderId: string | undefined;
  /** The exchange's status (NEW … FILLED, CANCELED), undefined until the exchange answered */
  readonly status: string | undefined;
  readonly executedQty: number;
  readonly averagePrice: number;
  /** The exchange's time of its last change, 0 before any */
  readonly updatedAt: number;
  /** Fills, oldest first, each once */
  readonly fills: readonly TrackedFill[];
}

export type OrderTrackListener = (order: TrackedOrder) => void;

/** Below this, a quantity difference is rounding, not a fill */
const QTY_EPS = 1e-12;

/** Exchange statuses after which an order no longer works: none of them goes back to working */
const DONE = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'EXPIRED_IN_MATCH', 'REJECTED', 'FINISHED']);

/** A conditional order's statuses once its trigger fired: it lives on as the order it placed */
const FIRED = new Set(['TRIGGERING', 'TRIGGERED', 'FINISHED']);

/**
 * The moves an intent's state may make, mirroring the order manager's guarded updates: answers arriving out of
 * order (a lookup's conclusion after the POST's own answer) never move an order backwards. `not_placed` may
 * become `pending` again (a bot asks again for an intent proven absent) or `placed` (a send held back past the
 * answer window, then answered)
 */
const MOVES: Record<OrderIntentState, readonly OrderIntentState[]> = {
  pending: ['sending', 'rejected', 'not_placed'],
  sending: ['unknown', 'placed', 'rejected', 'not_placed'],
  unknown: ['placed', 'rejected', 'not_placed'],
  not_placed: ['pending', 'placed'],
  placed: [],
  rejected: [],
};

interface Entry {
  userId: string;
  clientOrderId: string;
  botId: string | null;
  intentState: OrderIntentState;
  reason: string | null;
  exchangeOrderId: string | undefined;
  triggeredOrderId: string | undefined;
  /** A fired conditional order's own status (FINISHED: the order it placed is done too) */
  conditionalStatus: string | undefined;
  status: string | undefined;
  executedQty: number;
  averagePrice: number;
  updatedAt: number;
  fills: TrackedFill[];
  tradeIds: Set<string>;
}

const keyOf = (userId: string, clientOrderId: string) => `${userId}\u0000${clientOrderId}`;

/**
 * One record per client order id of the orders someone follows (a live bot subscribes under its id), fed by every
 * REST answer the order manager writes (place, cancel, lookup, reconcile) and by the user-data stream's order
 * updates, in the manner of hummingbot's client order tracker. Whatever order the answers arrive in, an order
 * only moves forward: the intent by `MOVES`, the exchange's state by executed quantity (never less) and status
 * (a finished order never works again); fills are kept once per trade id, with their commission. Subscribers hear
 * of every change of their bot's orders, synchronously; the tracker keeps nothing of a bot nobody follows.
 */
export class OrderTracker {
  readonly #orders = new Map<string, Entry>();
  readonly #subscribers = new Map<string, Set<OrderTrackListener>>();

  /**
   * Follows every order of `botId` from now on (the ones already recorded come with the intents the bot reads);
   * returns the unfollow. The bot's orders are forgotten when its last subscriber goes
   */
  subscribe(botId: string, listener: OrderTrackListener): () => void {
    let set = this.#subscribers.get(botId);
    if (!set) {
      set = new Set();
      this.#subscribers.set(botId, set);
    }
    set.add(listener);
    const own = set;
    return () => {
      own.delete(listener);
      if (own.size > 0 || this.#subscribers.get(botId) !== own) return;
      this.#subscribers.delete(botId);
      for (const [k, e] of this.#orders) if (e.botId === botId) this.#orders.delete(k);
    };
  }

  get(userId: string, clientOrderId: string): TrackedOrder | undefined {
    return this.#orders.get(keyOf(userId, clientOrderId));
  }

  /** Drops an order its follower is done with (finished and accounted for) */
  release(userId: string, clientOrderId: string): void {
    this.#orders.delete(keyOf(userId, clientOrderId));
  }

  /** An intent as the order manager wrote or read it (a REST answer: place, cancel, lookup, reconcile) */
  noteIntent(intent: StoredIntent): void {
    if (intent.botId === null || !this.#subscribers.has(intent.botId)) return;
    const k = keyOf(intent.userId, intent.clientOrderId);
    let entry = this.#orders.get(k);
    let changed = false;
    if (!entry) {
      entry = {
        userId: intent.userId,
        clientOrderId: intent.clientOrderId,
        botId: intent.botId,
        intentState: intent.state,
        reason: intent.reason,
        exchangeOrderId: undefined,
        triggeredOrderId: undefined,
        conditionalStatus: undefined,
        status: undefined,
        executedQty: 0,
        averagePrice: 0,
        updatedAt: 0,
        fills: [],
        tradeIds: new Set(),
      };
      this.#orders.set(k, entry);
      changed = true;
    } else if (entry.intentState !== intent.state && MOVES[entry.intentState].includes(intent.state)) {
      entry.intentState = intent.state;
      entry.reason = intent.reason;
      changed = true;
    }
    const order = intent.order;
    // The exchange's order stands for the intent only once the intent is placed
    if (order && entry.intentState === 'placed' && order.kind === 'conditional' && FIRED.has(order.status)) {
      changed =
        this.#fired(entry, order.orderId, order.status, order.triggeredOrderId ?? undefined) || changed;
    } else if (order && entry.intentState === 'placed') {
      changed =
        this.#exchangeState(entry, {
          orderId: order.orderId,
          status: order.status,
          executedQty: Number(order.executedQuantity),
          averagePrice: Number(order.averagePrice),
          time: order.updatedAt,
        }) || changed;
    }
    if (changed) this.#notify(entry);
  }

  /**
   * A conditional order's update of the user-data stream (`ALGO_UPDATE`): fired (the id of the order its trigger
   * placed, whose updates and trades are then its own), or canceled, expired, refused. True when it fired
   */
  noteConditional(userId: string, e: AlgoOrderUpdateEvent): boolean {
    const entry = this.#orders.get(keyOf(userId, e.clientAlgoId));
    if (!entry) return false;
    let changed = false;
    if (entry.intentState !== 'placed' && entry.intentState !== 'rejected') {
      entry.intentState = 'placed';
      entry.reason = null;
      changed = true;
    }
    const fired = FIRED.has(e.status);
    if (fired) changed = this.#fired(entry, e.algoId, e.status, e.triggeredOrderId) || changed;
    else
      changed =
        this.#exchangeState(entry, {
          orderId: e.algoId,
          status: e.status,
          executedQty: entry.executedQty,
          averagePrice: entry.averagePrice,
          time: e.time,
        }) || changed;
    if (changed) this.#notify(entry);
    return fired;
  }

  /**
   * An order update of the user-data stream: the order's new state, and its trade as a fill (once per trade id).
   * The stream speaks only of orders the exchange has, so the intent is placed, whatever answer is still on its way.
   * An update of the order a conditional order's trigger placed is that conditional order's. The client order id
   * it was noted under, if it is followed
   */
  noteStream(userId: string, e: OrderUpdateEvent): string | undefined {
    const entry = this.#orders.get(keyOf(userId, e.clientOrderId)) ?? this.#placedBy(userId, e.orderId);
    if (!entry) return undefined;
    const triggered = entry.triggeredOrderId === e.orderId && entry.clientOrderId !== e.clientOrderId;
    let changed = false;
    if (entry.intentState !== 'placed' && entry.intentState !== 'rejected') {
      entry.intentState = 'placed';
      entry.reason = null;
      changed = true;
    }
    const cumulative = Number(e.executedQuantity);
    changed =
      this.#exchangeState(entry, {
        // The conditional order keeps its own id (its REST reads name it); its trades name the triggered one
        orderId: triggered ? (entry.exchangeOrderId ?? e.orderId) : e.orderId,
        status: e.status,
        executedQty: cumulative,
        averagePrice: Number(e.averagePrice),
        time: e.time,
      }) || changed;
    const qty = Number(e.lastFilledQuantity);
    if ((e.executionType === 'TRADE' || e.executionType === 'LIQUIDATION') && qty > QTY_EPS) {
      changed =
        this.#fill(entry, {
          // Without the trade's id (an older feed), the cumulative quantity names the fill as well
          tradeId: e.tradeId ?? `${e.orderId}@${e.executedQuantity}`,
          quantity: qty,
          price: Number(e.lastFilledPrice),
          commission: Number(e.commission),
          commissionAsset: e.commissionAsset,
          time: e.time,
          via: 'stream',
        }) || changed;
    }
    if (changed) this.#notify(entry);
    return entry.clientOrderId;
  }

  /**
   * The account's trades as REST lists them (`userTrades`): each of a tracked order becomes a fill, once. Trades of
   * the order a conditional order's trigger placed are the conditional order's; as no REST read gives that order's
   * state, its executed quantity is what its trades add up to, and it is filled once the conditional order finished
   */
  noteTrades(userId: string, trades: readonly Trade[]): void {
    const byOrderId = new Map<string, Entry>();
    for (const e of this.#orders.values()) {
      if (e.userId !== userId) continue;
      if (e.exchangeOrderId !== undefined) byOrderId.set(e.exchangeOrderId, e);
      if (e.triggeredOrderId !== undefined) byOrderId.set(e.triggeredOrderId, e);
    }
    const changed = new Set<Entry>();
    for (const t of [...trades].sort((a, b) => a.time - b.time)) {
      const entry = byOrderId.get(t.orderId);
      if (!entry) continue;
      const fresh = this.#fill(entry, {
        tradeId: t.id,
        quantity: Number(t.quantity),
        price: Number(t.price),
        commission: Number(t.commission),
        commissionAsset: t.commissionAsset,
        time: t.time,
        via: 'exchange',
      });
      if (fresh) changed.add(entry);
    }
    for (const entry of changed) {
      if (entry.triggeredOrderId !== undefined) this.#triggeredByTrades(entry);
      this.#notify(entry);
    }
  }

  /** The entry of the conditional order whose trigger placed exchange order `orderId` */
  #placedBy(userId: string, orderId: string): Entry | undefined {
    for (const e of this.#orders.values())
      if (e.userId === userId && e.triggeredOrderId === orderId) return e;
    return undefined;
  }

  /**
   * A conditional order fired (`status` its own: TRIGGERED, FINISHED): the order it placed is followed from now on.
   * Until that order says otherwise it stays working; its id is the conditional order's own
   */
  #fired(entry: Entry, orderId: string, status: string, triggeredOrderId: string | undefined): boolean {
    let changed = false;
    if (entry.exchangeOrderId === undefined) {
      entry.exchangeOrderId = orderId;
      changed = true;
    }
    if (triggeredOrderId !== undefined && entry.triggeredOrderId !== triggeredOrderId) {
      entry.triggeredOrderId = triggeredOrderId;
      changed = true;
    }
    if (entry.conditionalStatus !== status) {
      entry.conditionalStatus = status;
      changed = true;
    }
    if (entry.status === undefined) {
      entry.status = 'NEW';
      changed = true;
    }
    if (status === 'FINISHED' && entry.triggeredOrderId === undefined && !DONE.has(entry.status ?? '')) {
      // Finished without placing an order (nothing to close): done, nothing filled
      entry.status = 'EXPIRED';
      changed = true;
    }
    return changed;
  }

  /** A fired conditional order's state from the trades of the order it placed (no stream told it) */
  #triggeredByTrades(entry: Entry): void {
    const qty = entry.fills.reduce((sum, f) => sum + f.quantity, 0);
    if (qty <= entry.executedQty + QTY_EPS) return;
    entry.averagePrice = entry.fills.reduce((sum, f) => sum + f.quantity * f.price, 0) / qty;
    entry.executedQty = qty;
    entry.updatedAt = Math.max(entry.updatedAt, ...entry.fills.map((f) => f.time));
    if (entry.conditionalStatus === 'FINISHED') entry.status = 'FILLED';
    else if (!DONE.has(entry.status ?? '')) entry.status = 'PARTIALLY_FILLED';
  }

  /** Moves the exchange's state forward only: more executed, or the same with a status no less final */
  #exchangeState(
    entry: Entry,
    next: { orderId: string; status: string; executedQty: number; averagePrice: number; time: number },
  ): boolean {
    let changed = false;
    if (entry.exchangeOrderId !== next.orderId) {
      entry.exchangeOrderId = next.orderId;
      changed = true;
    }
    if (next.executedQty < entry.executedQty - QTY_EPS) return changed;
    const wasDone = entry.status !== undefined && DONE.has(entry.status);
    const more = next.executedQty > entry.executedQty + QTY_EPS;
    if (!more && wasDone && !DONE.has(next.status)) return changed;
    if (!more && entry.status === next.status && entry.updatedAt >= next.time) return changed;
    entry.executedQty = next.executedQty;
    entry.averagePrice = next.averagePrice;
    // A finished order stays finished, even when a late update brings a fill it had not told yet
    if (!(wasDone && !DONE.has(next.status))) entry.status = next.status;
    entry.updatedAt = Math.max(entry.updatedAt, next.time);
    return true;
  }

  #fill(entry: Entry, fill: TrackedFill): boolean {
    if (entry.tradeIds.has(fill.tradeId)) return false;
    entry.tradeIds.add(fill.tradeId);
    const at = entry.fills.findIndex((f) => f.time > fill.time);
    if (at < 0) entry.fills.push(fill);
    else entry.fills.splice(at, 0, fill);
    return true;
  }

  #notify(entry: Entry): void {
    if (entry.botId === null) return;
    for (const listener of this.#subscribers.get(entry.botId) ?? []) listener(entry);
  }
}
