import type { CreateOrderRequest, FuturesOrder } from '@kestrel/contracts';
import type { BotOrder, BotRiskLimits } from '@kestrel/contracts/bots';
import {
  BarSeries,
  type Fill,
  type OrderPort,
  type OrderRequest,
  type OrderView,
  roundToStep,
  StrategyDriver,
  type StrategyType,
  stepDecimals,
} from '@kestrel/engine';
import type { Trade } from '../../core/exchange/exchange-adapter';
import type { OrderUpdateEvent } from '../../core/exchange/exchange-streams';
import type { StoredIntent } from '../orders/order-intent-repository';
import type { OrderManager } from '../orders/order-manager';
import type { CountedFee } from './commission-rates';
import {
  type BarOutcome,
  type BotBar,
  type BotLogEntry,
  orderBreach,
  type PaperFigures,
} from './paper-account';

/** What a live bot uses of the order manager: every order an intent keyed by (bot, bar time, order index) */
export type LiveOrders = Pick<OrderManager, 'place' | 'cancel' | 'reconcile' | 'cancelAllFor'> & {
  /** The bot's intents with these client order ids, as the manager last read them */
  ofBot(botId: string, clientOrderIds: readonly string[]): Promise<StoredIntent[]>;
  /** The account's latest fills on the symbol (`userTrades`), newest first: the fees of fills the stream missed */
  recentTrades(userId: string, symbol: string): Promise<Trade[]>;
  /** The account's fills on the symbol since `since`, oldest first: a resumed bot's fills with their commission */
  tradesSince(userId: string, symbol: string, since: number): Promise<{ trades: Trade[]; complete: boolean }>;
};

/** A commission counted in USDT (another asset, e.g. BNB, priced at the fill's minute) */
export type FeeCounter = (commission: number, asset: string, time: number) => Promise<CountedFee>;

const NO_FEE: CountedFee = { usdt: 0, words: '', data: {} };

/** Below this, a quantity difference is rounding, not a fill */
const QTY_EPS = 1e-12;

/** A bot order as the strategy sees it; `status` follows the exchange */
interface TrackedOrder extends OrderView {
  clientOrderId: string;
  status: OrderView['status'];
  submittedAt: number;
  reason: string;
  filledQty: number;
  avgFillPrice: number;
  /** Quantity already taken as fills (into the bot's position and PnL), and its value at the fill prices */
  accounted: number;
  accountedNotional: number;
  exchangeStatus: string;
  /** The exchange's id of the order (its trades name it), once known */
  exchangeOrderId?: string;
}

const OPEN = new Set(['NEW', 'PARTIALLY_FILLED']);
const TYPES: Record<OrderRequest['type'], CreateOrderRequest['type']> = {
  market: 'MARKET',
  limit: 'LIMIT',
  'stop-market': 'STOP_MARKET',
  'take-profit-market': 'TAKE_PROFIT_MARKET',
  'trailing-stop-market': 'TRAILING_STOP_MARKET',
};

/**
 * A live bot's account: the strategy (through the engine's `StrategyDriver`) against the exchange, every order an
 * order-manager intent keyed by (bot, bar open time, index of the order in that bar), so asking again for the same
 * intent never sends a second order. The bot's position is the sum of its own fills (other orders and positions on
 * the account are the owner's or another bot's: reported by the manager's reconcile, never touched). Fills are
 * read from the intents' orders as the manager last read them (it reconciles before every bar). A resumed bot
 * replays its bars since the start: each order it asks for again is answered by the stored intent, so the
 * strategy's state is rebuilt from what really happened on the exchange, and nothing is sent twice.
 */
export class LiveAccount {
  private readonly series: BarSeries;
  private readonly driver: StrategyDriver;
  private readonly port: LivePort;
  private last: BotBar | undefined;
  private dayRealized = 0;
  private day = Number.NaN;
  private peakEquity: number;
  /** The session's fills before a restart, read once when the replay first needs them */
  private sessionTrades: Promise<{ trades: Trade[]; failure?: string }> | undefined;

  constructor(
    type: StrategyType,
    params: Record<string, unknown>,
    intervalMs: number,
    private readonly ctx: {
      userId: string;
      botId: string;
      symbol: string;
      budget: number;
      leverage: number;
      tickSize: number;
      stepSize: number;
      limits: BotRiskLimits;
      orders: LiveOrders;
      /** Open time of the session's first traded bar: its fills before a restart are read back from here */
      sessionStart: number;
      countFee: FeeCounter;
    },
  ) {
    this.series = new BarSeries(intervalMs, 64);
    this.port = new LivePort(ctx, ctx.countFee, (r) => {
      const f = this.figures();
      this.peakEquity = Math.max(this.peakEquity, f.equity);
      return orderBreach(r, f, this.peakEquity, ctx.limits, (q) => this.port.roundQty(q));
    });
    this.driver = new StrategyDriver(type, params, this.series, this.port);
    this.peakEquity = ctx.budget;
  }

  warm(bar: BotBar): void {
    this.series.append(bar.openTime, bar.open, bar.high, bar.low, bar.close, bar.volume);
    this.driver.onBarClosed(this.series.length - 1, []);
  }

  /**
   * A closed bar: the bot's orders as the exchange has them now (`replay`: as stored, for bars before a restart),
   * their new fills to the strategy, the strategy's new orders and cancels through the order manager
   */
  async trade(bar: BotBar, replay: boolean): Promise<BarOutcome> {
    const { orders, userId, botId } = this.ctx;
    this.port.warming = false;
    this.series.append(bar.openTime, bar.open, bar.high, bar.low, bar.close, bar.volume);
    const i = this.series.length - 1;
    const barEnd = bar.openTime + this.series.intervalMs;
    const day = Math.floor(bar.openTime / 86_400_000);
    if (day !== this.day) {
      this.day = day;
      this.dayRealized = this.port.realized;
    }
    this.last = bar;
    const log: BotLogEntry[] = [];
    if (!replay) await this.resync(log);
    else await this.replayFills(barEnd, log, bar.openTime);
    const fills = this.port.takeFills(barEnd, i, log, bar.openTime);
    const f = this.figures();
    this.peakEquity = Math.max(this.peakEquity, f.equity);
    const account = orderBreach(undefined, f, this.peakEquity, this.ctx.limits, (q) => q);
    if (account) return { log, breach: account };

    this.port.breach = undefined;
    this.driver.onBarClosed(i, fills);
    const breach = this.port.breach;
    const { submitted, cancels } = this.port.takeBarWork();
    for (const clientOrderId of cancels) {
      try {
        await orders.cancel(userId, clientOrderId);
      } catch (err) {
        log.push({
          kind: 'error',
          message: `Cancel of ${clientOrderId} failed: ${(err as Error).message}`,
          data: { barTime: bar.openTime, clientOrderId },
        });
      }
    }
    if (submitted.length > 0) {
      log.push({
        kind: 'signal',
        message: `The bar closed at ${bar.close}: ${submitted.length} order${submitted.length === 1 ? '' : 's'}`,
        data: { barTime: bar.openTime, close: bar.close, orders: submitted.length },
      });
    }
    let refused: BarOutcome['breach'];
    for (const [k, o] of submitted.entries()) {
      const intent = await orders.place({
        userId,
        source: 'bot',
        botId,
        intentKey: `${bar.openTime}:${k}`,
        order: this.port.request(o),
      });
      this.port.adopt(o, intent);
      const data = {
        barTime: bar.openTime,
        clientOrderId: intent.clientOrderId,
        side: o.side,
        type: o.type,
        quantity: o.quantity,
        price: o.price,
        state: intent.state,
      };
      if (intent.state === 'rejected' || intent.state === 'not_placed') {
        const reason = intent.reason ?? 'no reason given';
        log.push({
          kind: 'order_refused',
          message: `The exchange refused ${o.side} ${o.type} ${o.quantity}: ${reason}`,
          data,
        });
        // Never loop on a refusal: the bot stops and says why
        refused ??= { message: `An order was refused: ${reason}`, data };
      } else if (intent.state === 'unknown' || intent.state === 'sending' || intent.state === 'pending') {
        log.push({
          kind: 'order_unknown',
          message: `${o.side} ${o.type} ${o.quantity}: outcome unknown, the server is asking the exchange`,
          data,
        });
      } else {
        log.push({
          kind: 'order_sent',
          message: `${o.side} ${o.type} ${o.quantity}${Number.isFinite(o.price) ? ` at ${o.price}` : ''} (${intent.clientOrderId})`,
          data,
        });
      }
    }
    const stop = breach ?? refused;
    return stop ? { log, breach: stop } : { log };
  }

  /**
   * An order update from the owner's account stream: a trade of one of the bot's orders is taken at once (position,
   * PnL net of the commission); the log lines to record. The strategy hears of it at the next close
   */
  async onOrderUpdate(e: OrderUpdateEvent): Promise<BotLogEntry[]> {
    const log: BotLogEntry[] = [];
    await this.port.streamUpdate(e, log);
    return log;
  }

  /**
   * A replayed bar (before a restart): the fills of the bot's orders up to its end, each as the exchange booked it
   * (`userTrades`: price, time and commission), so the session's PnL after a restart still counts the fees paid
   * before it. Fills the trades do not show (they could not be read) are taken by `takeFills` at the order's
   * average, without fee, and the log says so once
   */
  private async replayFills(barEnd: number, log: BotLogEntry[], barTime: number): Promise<void> {
    if (!this.port.missing().some((o) => o.exchangeOrderId !== undefined)) return;
    const { userId, symbol, orders, sessionStart } = this.ctx;
    const first = this.sessionTrades === undefined;
    this.sessionTrades ??= orders.tradesSince(userId, symbol, sessionStart).then(
      ({ trades, complete }) =>
        complete
          ? { trades }
          : {
              trades,
              failure: `Fills before the restart past the first ${trades.length} are counted without their fees (too many to read back)`,
            },
      (err: unknown) => ({
        trades: [],
        failure: `Fills before the restart are counted without their fees: the exchange's trades could not be read (${(err as Error).message || 'no answer'})`,
      }),
    );
    const { trades, failure } = await this.sessionTrades;
    if (failure && first) log.push({ kind: 'error', message: failure, data: { barTime } });
    await this.port.takeTrades(
      trades.filter((t) => t.time < barEnd),
      log,
      barTime,
    );
  }

  /**
   * Brings the bot's orders to the exchange's state by REST (the manager's reconcile, then the intents): after a
   * stream gap, and before each bar. Fills found this way (the stream missed them) are taken with their
   * commission from the account's recent trades; the log lines to record
   */
  async resync(log: BotLogEntry[] = []): Promise<BotLogEntry[]> {
    const { orders, userId, botId, symbol } = this.ctx;
    await orders.reconcile(userId, symbol);
    for (const intent of await orders.ofBot(botId, this.port.followed)) this.port.update(intent);
    if (this.port.missing().length > 0) {
      await this.port.takeTrades(await orders.recentTrades(userId, symbol), log);
    }
    return log;
  }

  /** Stops trading: every order of the bot canceled through the manager; the session's PnL at the last close */
  async close(): Promise<{ sessionPnl: number; canceled: number }> {
    const result = await this.ctx.orders.cancelAllFor(this.ctx.botId);
    const f = this.figures();
    return { sessionPnl: f.realizedPnl + f.unrealizedPnl, canceled: result.canceled.length };
  }

  figures(): PaperFigures {
    const p = this.port;
    const mark = this.last?.close;
    const unrealized = mark === undefined || p.positionQty === 0 ? 0 : p.positionQty * (mark - p.entryPrice);
    return {
      // Net of the commissions paid
      realizedPnl: p.realized,
      unrealizedPnl: unrealized,
      todayPnl: p.realized - this.dayRealized + unrealized,
      positionQty: p.positionQty,
      entryPrice: p.positionQty === 0 ? null : p.entryPrice,
      markPrice: mark ?? null,
      equity: this.ctx.budget + p.realized + unrealized,
      peakEquity: Math.max(this.peakEquity, this.ctx.budget + p.realized + unrealized),
      openOrders: p.openOrders.map((o) => toBotOrder(o as TrackedOrder)),
    };
  }
}

function toBotOrder(o: TrackedOrder): BotOrder {
  return {
    clientOrderId: o.clientOrderId,
    side: o.side === 'buy' ? 'BUY' : 'SELL',
    type: TYPES[o.type],
    price: Number.isFinite(o.price) ? String(o.price) : null,
    quantity: String(o.quantity),
    status: o.exchangeStatus,
    reduceOnly: o.reduceOnly,
    time: o.submittedAt,
  };
}

/** The strategy's port on the exchange: orders are collected during the bar and sent after it */
class LivePort implements OrderPort {
  warming = true;
  breach: BarOutcome['breach'];
  positionQty = 0;
  entryPrice = 0;
  readonly liquidationPrice = Number.NaN;
  /** Realized PnL net of commissions */
  realized = 0;
  /** Commissions paid (quote asset) */
  fees = 0;
  /** Fills taken but not yet handed to the strategy */
  private pending: Fill[] = [];
  private nextId = 1;
  private readonly inFlight: TrackedOrder[] = [];
  private readonly open: TrackedOrder[] = [];
  private readonly byClientId = new Map<string, TrackedOrder>();
  private cancels: string[] = [];
  private readonly qtyDecimals: number;
  private readonly priceDecimals: number;

  constructor(
    private readonly ctx: {
      budget: number;
      leverage: number;
      tickSize: number;
      stepSize: number;
      symbol: string;
    },
    private readonly countFee: FeeCounter,
    private readonly check: (request: OrderRequest) => BarOutcome['breach'],
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
      callbackRate: request.callbackRate,
    } as TrackedOrder & { callbackRate?: number };
    if (this.warming)
      return { ...order, status: 'rejected', reason: 'warm-up: history bars place no orders' };
    const breach = this.breach ?? this.check(request);
    if (breach) {
      this.breach = breach;
      return { ...order, status: 'rejected', reason: breach.message };
    }
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

  /** The bar's new orders and cancels, handed to the order manager after the strategy's step */
  takeBarWork(): { submitted: TrackedOrder[]; cancels: string[] } {
    const submitted = this.inFlight.splice(0);
    const cancels = [...new Set(this.cancels)];
    this.cancels = [];
    return { submitted, cancels };
  }

  /** The order as the exchange gets it: decimal strings on the symbol's step and tick */
  request(o: TrackedOrder & { callbackRate?: number }): CreateOrderRequest {
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
      ...(o.reduceOnly && !o.closePosition ? { reduceOnly: true } : {}),
      ...(o.closePosition ? { closePosition: true } : {}),
    } as CreateOrderRequest;
  }

  /** The manager's answer to a submitted order: it is now tracked under its client order id */
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
    this.update(intent);
  }

  /** The exchange's state of one of the bot's orders, as the manager last read it */
  update(intent: StoredIntent): void {
    const o = this.byClientId.get(intent.clientOrderId);
    if (!o) return;
    const ex: FuturesOrder | null = intent.order;
    if (intent.state === 'unknown' || intent.state === 'sending' || intent.state === 'pending') {
      o.exchangeStatus = 'UNKNOWN';
      return;
    }
    if (!ex) return;
    o.exchangeOrderId = ex.orderId;
    // The stream may already know more than this read (a fill after it): the exchange's state only moves forward
    if (Number(ex.executedQuantity) < o.filledQty - QTY_EPS) return;
    o.exchangeStatus = ex.status;
    o.filledQty = Number(ex.executedQuantity);
    o.avgFillPrice = Number(ex.averagePrice);
    (o as { closedAt: number }).closedAt = OPEN.has(ex.status) ? Number.NaN : ex.updatedAt;
    (o as { exchangeUpdatedAt?: number }).exchangeUpdatedAt = ex.updatedAt;
  }

  /** One order update of the account stream: the bot's order's new state, and its trade taken at once */
  async streamUpdate(e: OrderUpdateEvent, log: BotLogEntry[]): Promise<void> {
    const o = this.byClientId.get(e.clientOrderId);
    if (!o) return;
    o.exchangeOrderId = e.orderId;
    const cumulative = Number(e.executedQuantity);
    if (cumulative < o.filledQty - QTY_EPS) return; // older than what is known
    const qty = Math.min(Number(e.lastFilledQuantity), cumulative - o.accounted);
    if (e.executionType === 'TRADE' && qty > QTY_EPS) {
      // Binance charges futures commissions in the margin asset (USDT here), or in BNB when the account's BNB fee
      // discount is on: that one is priced in USDT at the fill's minute
      const fee = await this.countFee(Number(e.commission), e.commissionAsset, e.time);
      this.take(o, qty, Number(e.lastFilledPrice), fee, e.time, 'stream', log);
    }
    o.exchangeStatus = e.status;
    o.filledQty = cumulative;
    o.avgFillPrice = Number(e.averagePrice);
    (o as { closedAt: number }).closedAt = OPEN.has(e.status) ? Number.NaN : e.time;
    (o as { exchangeUpdatedAt?: number }).exchangeUpdatedAt = e.time;
  }

  /** Orders the exchange says filled more than the bot has taken (the stream missed those fills) */
  missing(): TrackedOrder[] {
    return [...this.byClientId.values()].filter((o) => o.filledQty - o.accounted > QTY_EPS);
  }

  /**
   * The fills of the bot's orders not yet taken, from the account's trades (any order, as the exchange lists them):
   * per order, its trades oldest first, the quantity already taken skipped, each rest taken with its share of the
   * trade's commission (counted in USDT). `barTime`: a replayed bar's, for its log lines
   */
  async takeTrades(trades: readonly Trade[], log: BotLogEntry[], barTime?: number): Promise<void> {
    for (const o of this.missing()) {
      if (!o.exchangeOrderId) continue;
      const own = trades.filter((t) => t.orderId === o.exchangeOrderId).sort((a, b) => a.time - b.time);
      let seen = 0;
      for (const t of own) {
        const q = Number(t.quantity);
        const before = seen;
        seen += q;
        const fresh = Math.min(q, seen - Math.max(before, o.accounted), o.filledQty - o.accounted);
        if (fresh <= QTY_EPS) continue;
        const fee = await this.countFee(Number(t.commission) * (fresh / q), t.commissionAsset, t.time);
        this.take(o, fresh, Number(t.price), fee, t.time, 'exchange', log, barTime);
      }
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
    this.pending.push(
      Object.freeze({
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
      }) as Fill,
    );
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

  /**
   * At a bar's close: fills up to `barEnd` the exchange reports that were not taken yet (a replay after a restart,
   * or a fill no stream or trade read showed) taken at their average price, then every fill taken before `barEnd`
   * handed to the strategy; orders no longer working leave the open list
   */
  takeFills(barEnd: number, barIndex: number, log: BotLogEntry[], barTime: number): Fill[] {
    for (const o of [...this.byClientId.values()]) {
      const updatedAt = (o as { exchangeUpdatedAt?: number }).exchangeUpdatedAt ?? 0;
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
      }
    }
    const due = this.pending.filter((f) => f.time < barEnd);
    this.pending = this.pending.filter((f) => f.time >= barEnd);
    return due.map((f) => Object.freeze({ ...f, barIndex }));
  }
}
