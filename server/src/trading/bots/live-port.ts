import type { CreateOrderRequest } from '@kestrel/contracts';
import {
  type Fill,
  type OrderPort,
  type OrderRequest,
  type OrderView,
  roundToStep,
  stepDecimals,
} from '@kestrel/engine';
import type { StoredIntent } from '../orders/order-intent-repository';
import type { OrderTracker, TrackedFill } from '../orders/order-tracker';
import type { Verdict } from '../risk/pre-trade/verdict';
import type { HedgeSide } from './bot-repository';
import { type BarOutcome, type BotLogEntry, orderWords } from './bot-step';
import type { CountedFee } from './commission-rates';

/** What a live bot uses of the order tracker: its orders' state and fills, fed by REST answers and the stream */
export type BotOrderTracker = Pick<
  OrderTracker,
  'subscribe' | 'get' | 'release' | 'noteIntent' | 'noteStream' | 'noteTrades' | 'noteConditional'
>;

/** A commission counted in USDT (another asset, e.g. BNB, priced at the fill's minute) */
export type FeeCounter = (commission: number, asset: string, time: number) => Promise<CountedFee>;

const NO_FEE: CountedFee = { usdt: 0, words: '', data: {} };

/** Below this, a quantity difference is rounding, not a fill */
const QTY_EPS = 1e-12;

/** A bot order as the strategy sees it; `status` follows the exchange (copied from the tracker) */
export interface TrackedOrder extends OrderView {
  clientOrderId: string;
  status: OrderView['status'];
  submittedAt: number;
  reason: string;
  filledQty: number;
  avgFillPrice: number;
  /** Quantity already taken as fills (into the bot's position and PnL), and its value at the fill prices */
  accounted: number;
  accountedNotional: number;
  /** The pre-trade pipeline's verdicts at submit (bot limits), recorded on the intent */
  verdicts: Verdict[];
  exchangeStatus: string;
  /** The exchange's id of the order (its trades name it), once known */
  exchangeOrderId?: string;
  /** The exchange's time of the order's last change */
  exchangeUpdatedAt?: number;
  /** Trailing stops: the distance the price may come back (a fraction) and the price it starts trailing from */
  callbackRate?: number;
  activationPrice?: number;
}

const OPEN = new Set(['NEW', 'PARTIALLY_FILLED']);
export const TYPES: Record<OrderRequest['type'], CreateOrderRequest['type']> = {
  market: 'MARKET',
  limit: 'LIMIT',
  'stop-market': 'STOP_MARKET',
  'take-profit-market': 'TAKE_PROFIT_MARKET',
  'trailing-stop-market': 'TRAILING_STOP_MARKET',
};

/**
 * The strategy's port on the exchange: orders are collected during the strategy's step (a fill's answer, a bar)
 * and sent after it; the exchange's side
 * of each order (its state, its fills) is read from the order tracker, the bot's side (what it has taken into
 * its position and PnL) is kept here
 */
export class LivePort implements OrderPort {
  warming = true;
  breach: BarOutcome['breach'];
  positionQty = 0;
  entryPrice = 0;
  readonly liquidationPrice = Number.NaN;
  /** Realized PnL net of commissions */
  realized = 0;
  /** Commissions paid (quote asset) */
  fees = 0;
  /**
   * Fills taken but not yet handed to the strategy, each with its trigger: the order and the quantity its fills
   * reach (`<client order id>@<filled>`), the key of the orders the strategy places in answer, the same when a
   * resumed bot takes the same fills again
   */
  private pending: { fill: Fill; trigger: string }[] = [];
  private nextId = 1;
  private readonly inFlight: TrackedOrder[] = [];
  private readonly open: TrackedOrder[] = [];
  private readonly byClientId = new Map<string, TrackedOrder>();
  private cancels: string[] = [];
  private readonly qtyDecimals: number;
  private readonly priceDecimals: number;

  constructor(
    private readonly ctx: {
      userId: string;
      budget: number;
      leverage: number;
      tickSize: number;
      stepSize: number;
      symbol: string;
      /** Hedge mode: the side every order names */
      positionSide?: HedgeSide;
    },
    private readonly tracker: BotOrderTracker,
    private readonly countFee: FeeCounter,
    private readonly check: (request: OrderRequest) => { breach: BarOutcome['breach']; verdicts: Verdict[] },
  ) {
    this.qtyDecimals = stepDecimals(ctx.stepSize);
    this.priceDecimals = stepDecimals(ctx.tickSize);
  }

  get walletBalance() {
    return this.ctx.budget + this.realized;
  }
  get leverage() {
    return this.ctx.leverage;
  }
  get inFlightOrders(): readonly OrderView[] {
    return this.inFlight;
  }
  get openOrders(): readonly OrderView[] {
    return this.open;
  }
  /** The bot's leverage is set on the symbol when it starts; a strategy asking for the same is a no-op */
  setLeverage(): void {}
  roundQty(qty: number): number {
    return roundToStep(qty, this.ctx.stepSize, 'down');
  }
  roundPrice(price: number): number {
    return roundToStep(price, this.ctx.tickSize);
  }
  equityAt(price: number): number {
    return this.walletBalance + (this.positionQty === 0 ? 0 : this.positionQty * (price - this.entryPrice));
  }

  submit(request: OrderRequest): OrderView {
    const order: TrackedOrder = {
      id: this.nextId++,
      clientOrderId: '',
      side: request.side,
      type: request.type,
      quantity: request.closePosition ? 0 : this.roundQty(request.quantity ?? 0),
      price: request.price === undefined ? Number.NaN : this.roundPrice(request.price),
      triggerPrice: request.triggerPrice === undefined ? Number.NaN : this.roundPrice(request.triggerPrice),
      reduceOnly: request.reduceOnly === true || request.closePosition === true,
      closePosition: request.closePosition === true,
      tag: request.tag ?? '',
      status: 'in-flight',
      filledQty: 0,
      avgFillPrice: 0,
      submittedAt: Number.NaN,
      closedAt: Number.NaN,
      reason: '',
      accounted: 0,
      accountedNotional: 0,
      exchangeStatus: 'PENDING',
      verdicts: [],
      ...(request.callbackRate === undefined ? {} : { callbackRate: request.callbackRate }),
      ...(request.activationPrice === undefined
        ? {}
        : { activationPrice: this.roundPrice(request.activationPrice) }),
    } as TrackedOrder;
    if (this.warming)
      return { ...order, status: 'rejected', reason: 'warm-up: history bars place no orders' };
    const judged = this.breach ? undefined : this.check(request);
    // Never sent: a quantity the lot rounds to nothing (the exchange would refuse it; the bot stops and says why)
    const empty =
      !order.closePosition && !(order.quantity > 0)
        ? {
            message: `${orderWords(order)} is less than one lot of ${this.ctx.symbol} (${this.ctx.stepSize}): not sent`,
            data: { side: order.side, type: order.type, quantity: request.quantity ?? 0 },
          }
        : undefined;
    const breach = this.breach ?? empty ?? judged?.breach;
    if (breach) {
      this.breach = breach;
      return { ...order, status: 'rejected', reason: breach.message };
    }
    order.verdicts = judged?.verdicts ?? [];
    this.inFlight.push(order);
    return order;
  }

  cancel(orderId: number): boolean {
    const k = this.inFlight.findIndex((o) => o.id === orderId);
    if (k >= 0) {
      this.inFlight.splice(k, 1);
      return true;
    }
    const o = this.open.find((x) => x.id === orderId);
    if (!o) return false;
    this.cancels.push(o.clientOrderId);
    return true;
  }

  cancelAll(): void {
    this.inFlight.length = 0;
    for (const o of this.open) this.cancels.push(o.clientOrderId);
  }

  /** Client order ids of the orders still followed (working, or filled since the last bar) */
  get followed(): string[] {
    return [...this.byClientId.keys()];
  }

  /** The step's new orders and cancels, handed to the order manager after the strategy's step */
  takeWork(): { submitted: TrackedOrder[]; cancels: string[] } {
    const submitted = this.inFlight.splice(0);
    const cancels = [...new Set(this.cancels)];
    this.cancels = [];
    return { submitted, cancels };
  }

  /** The order as the exchange gets it: decimal strings on the symbol's step and tick */
  request(o: TrackedOrder): CreateOrderRequest {
    const qty = o.closePosition ? undefined : o.quantity.toFixed(this.qtyDecimals);
    const price = Number.isFinite(o.price) ? o.price.toFixed(this.priceDecimals) : undefined;
    const trigger = Number.isFinite(o.triggerPrice) ? o.triggerPrice.toFixed(this.priceDecimals) : undefined;
    return {
      symbol: this.ctx.symbol,
      side: o.side === 'buy' ? 'BUY' : 'SELL',
      type: TYPES[o.type],
      ...(qty !== undefined ? { quantity: qty } : {}),
      ...(o.type === 'limit' ? { price, timeInForce: 'GTC' as const } : {}),
      ...(trigger !== undefined ? { triggerPrice: trigger } : {}),
      ...(o.type === 'trailing-stop-market' && o.callbackRate !== undefined
        ? { callbackRate: (o.callbackRate * 100).toFixed(1) }
        : {}),
      ...(o.type === 'trailing-stop-market' && o.activationPrice !== undefined
        ? { activationPrice: o.activationPrice.toFixed(this.priceDecimals) }
        : {}),
      // In hedge mode the side says whether an order opens or closes: Binance refuses `reduceOnly` there
      ...(this.ctx.positionSide ? { positionSide: this.ctx.positionSide } : {}),
      ...(o.reduceOnly && !o.closePosition && !this.ctx.positionSide ? { reduceOnly: true } : {}),
      ...(o.closePosition ? { closePosition: true } : {}),
    } as CreateOrderRequest;
  }

  /** The manager's answer to a submitted order: it is now followed under its client order id */
  adopt(o: TrackedOrder, intent: StoredIntent): void {
    o.clientOrderId = intent.clientOrderId;
    o.submittedAt = intent.createdAt;
    this.byClientId.set(intent.clientOrderId, o);
    if (intent.state === 'rejected' || intent.state === 'not_placed') {
      o.status = 'rejected';
      o.reason = intent.reason ?? '';
      o.exchangeStatus = 'REJECTED';
      return;
    }
    o.status = 'open';
    this.open.push(o);
    this.tracker.noteIntent(intent);
    this.sync(intent.clientOrderId);
  }

  /** Is this one of the orders the bot follows (working, or filled since the last bar)? */
  follows(clientOrderId: string): boolean {
    return this.byClientId.has(clientOrderId);
  }

  /**
   * The tracker's state of one of the bot's orders copied into the strategy's view (the tracker only ever moves
   * an order forward, whichever answer came last)
   */
  sync(clientOrderId: string): void {
    const o = this.byClientId.get(clientOrderId);
    const t = this.tracker.get(this.ctx.userId, clientOrderId);
    if (!o || !t) return;
    if (t.intentState === 'unknown' || t.intentState === 'sending' || t.intentState === 'pending') {
      o.exchangeStatus = 'UNKNOWN';
      return;
    }
    if (t.status === undefined) return;
    o.exchangeOrderId = t.exchangeOrderId;
    o.exchangeStatus = t.status;
    o.filledQty = t.executedQty;
    o.avgFillPrice = t.averagePrice;
    (o as { closedAt: number }).closedAt = OPEN.has(t.status) ? Number.NaN : t.updatedAt;
    o.exchangeUpdatedAt = t.updatedAt;
  }

  /** Orders the exchange says filled more than the bot has taken (their fills are still to take) */
  missing(): TrackedOrder[] {
    return [...this.byClientId.values()].filter((o) => o.filledQty - o.accounted > QTY_EPS);
  }

  /**
   * Conditional orders that fired (a stop, a take-profit, a trailing stop) whose placed order has not been seen
   * filling yet: their fills are read from the account's trades (no REST read gives that order's state)
   */
  firedUnfilled(): boolean {
    for (const o of this.byClientId.values()) {
      const t = this.tracker.get(this.ctx.userId, o.clientOrderId);
      if (t?.triggeredOrderId !== undefined && OPEN.has(t.status ?? '')) return true;
    }
    return false;
  }

  /** The followed conditional order whose trigger placed exchange order `orderId`, by its client order id */
  firedAs(orderId: string): string | undefined {
    for (const o of this.byClientId.values()) {
      if (this.tracker.get(this.ctx.userId, o.clientOrderId)?.triggeredOrderId === orderId)
        return o.clientOrderId;
    }
    return undefined;
  }

  /**
   * An order the account stream just spoke of: its fills not yet taken, at once. Whichever read brought a fill to
   * the tracker first (this event, or a trades read that came before it), it is taken here
   */
  async takeFillsOf(clientOrderId: string, log: BotLogEntry[]): Promise<void> {
    const o = this.byClientId.get(clientOrderId);
    const t = this.tracker.get(this.ctx.userId, clientOrderId);
    if (o && t) await this.takeFills(o, t.fills, log);
  }

  /**
   * The fills of the bot's orders not yet taken, as the tracker has them from the account's trades (and the
   * stream), before `barEnd` when given. `barTime`: a replayed bar's, for its log lines
   */
  async takeTrades(log: BotLogEntry[], barTime?: number, barEnd = Number.POSITIVE_INFINITY): Promise<void> {
    for (const o of this.missing()) {
      const t = this.tracker.get(this.ctx.userId, o.clientOrderId);
      if (t && o.exchangeOrderId) await this.takeFills(o, t.fills, log, barTime, barEnd);
    }
  }

  /**
   * One order's fills, oldest first: the quantity already taken skipped (after a restart it is known only as a
   * quantity), each rest taken with its share of the fill's commission, up to what the exchange says the order
   * executed. A fill the tracker holds twice cannot be: it keys fills by trade id
   */
  private async takeFills(
    o: TrackedOrder,
    fills: readonly TrackedFill[],
    log: BotLogEntry[],
    barTime?: number,
    barEnd = Number.POSITIVE_INFINITY,
  ): Promise<void> {
    let seen = 0;
    for (const f of fills) {
      if (f.time >= barEnd) continue;
      const q = f.quantity;
      const before = seen;
      seen += q;
      const fresh = Math.min(q, seen - Math.max(before, o.accounted), o.filledQty - o.accounted);
      if (fresh <= QTY_EPS) continue;
      // Binance charges futures commissions in the margin asset (USDT here), or in BNB when the account's BNB fee
      // discount is on: that one is priced in USDT at the fill's minute
      const fee = await this.countFee(f.commission * (fresh / q), f.commissionAsset, f.time);
      this.take(o, fresh, f.price, fee, f.time, f.via, log, barTime);
    }
  }

  /** A fill of one of the bot's orders into its position and PnL (net of `fee`), logged, queued for the strategy */
  private take(
    o: TrackedOrder,
    qty: number,
    price: number,
    counted: CountedFee,
    time: number,
    via: 'stream' | 'exchange',
    log: BotLogEntry[],
    barTime?: number,
  ): void {
    const fee = counted.usdt;
    const signed = o.side === 'buy' ? qty : -qty;
    let realizedPnl = 0;
    const pos = this.positionQty;
    if (pos !== 0 && Math.sign(signed) !== Math.sign(pos)) {
      const closing = Math.min(Math.abs(signed), Math.abs(pos));
      realizedPnl = closing * (price - this.entryPrice) * Math.sign(pos);
      const after = pos + signed;
      this.entryPrice = Math.sign(after) === Math.sign(pos) || after === 0 ? this.entryPrice : price;
      this.positionQty = roundToStep(after, this.ctx.stepSize);
    } else {
      const after = pos + signed;
      this.entryPrice = (Math.abs(pos) * this.entryPrice + Math.abs(signed) * price) / Math.abs(after);
      this.positionQty = roundToStep(after, this.ctx.stepSize);
    }
    if (this.positionQty === 0) this.entryPrice = 0;
    this.realized += realizedPnl - fee;
    this.fees += fee;
    o.accounted += qty;
    o.accountedNotional += qty * price;
    // A filled order leaves the strategy's open orders with its last fill, not at the next close
    if (o.quantity > 0 && o.accounted >= o.quantity - QTY_EPS) {
      const k = this.open.indexOf(o);
      if (k >= 0) this.open.splice(k, 1);
      o.status = 'filled';
    }
    const fill = Object.freeze({
      orderId: o.id,
      tag: o.tag,
      time,
      barIndex: -1,
      side: o.side,
      quantity: qty,
      price,
      fee,
      liquidity: o.type === 'limit' ? 'maker' : 'taker',
      realizedPnl,
      positionAfter: this.positionQty,
    }) as Fill;
    this.pending.push({ fill, trigger: `${o.clientOrderId}@${o.accounted.toFixed(this.qtyDecimals)}` });
    log.push({
      kind: 'order_filled',
      message: `Filled ${o.side} ${qty} at ${price}${counted.words ? `, ${counted.words}` : ''} (${o.clientOrderId})`,
      data: {
        ...(barTime === undefined ? {} : { barTime }),
        clientOrderId: o.clientOrderId,
        side: o.side,
        quantity: qty,
        price,
        fee,
        ...counted.data,
        realizedPnl,
        positionAfter: this.positionQty,
        filledTotal: o.accounted,
        fillTime: time,
        via,
      },
    });
  }

  /** The fills taken since the last call, oldest first, each with the trigger its answers are keyed by */
  takeTaken(): { fill: Fill; trigger: string }[] {
    return this.pending.splice(0);
  }

  /**
   * At a bar's close: fills up to `barEnd` the exchange reports that were not taken yet (a replay after a restart,
   * or a fill no stream or trade read showed) taken at their average price; orders no longer working leave the
   * open list
   */
  settleBar(barEnd: number, log: BotLogEntry[], barTime: number): void {
    for (const o of [...this.byClientId.values()]) {
      const updatedAt = o.exchangeUpdatedAt ?? 0;
      if (updatedAt >= barEnd) continue;
      const qty = o.filledQty - o.accounted;
      if (qty > QTY_EPS) {
        // The price of the part not yet taken, from the order's average over all its fills
        const rest = (o.filledQty * o.avgFillPrice - o.accountedNotional) / qty;
        const price = Number.isFinite(rest) && rest > 0 ? this.roundPrice(rest) : o.avgFillPrice;
        this.take(o, qty, price, NO_FEE, updatedAt, 'exchange', log, barTime);
      }
      if (!OPEN.has(o.exchangeStatus) && o.exchangeStatus !== 'UNKNOWN') {
        const k = this.open.indexOf(o);
        if (k >= 0) this.open.splice(k, 1);
        o.status =
          o.exchangeStatus === 'FILLED' ? 'filled' : o.exchangeStatus === 'CANCELED' ? 'canceled' : 'expired';
        if (o.status !== 'filled') {
          log.push({
            kind: 'order_canceled',
            message: `${o.exchangeStatus}: ${o.side} ${o.type} ${o.quantity} (${o.clientOrderId})`,
            data: { barTime, clientOrderId: o.clientOrderId, status: o.exchangeStatus },
          });
        }
        this.byClientId.delete(o.clientOrderId);
        this.tracker.release(this.ctx.userId, o.clientOrderId);
      }
    }
  }
}
