import type { BotRiskLimits } from '@kestrel/contracts/bots';
import {
  BarSeries,
  type BrokerConfig,
  type OrderPort,
  type OrderRequest,
  type OrderView,
  SimBroker,
  StrategyDriver,
  type StrategyType,
} from '@kestrel/engine';
import { judgeBotOrder } from '../risk/pre-trade/bot-limits';
import {
  type BarOutcome,
  type BotBar,
  type BotLogEntry,
  type FormingBar,
  orderWords,
  type PaperFigures,
  stepSignal,
  triggerOf,
} from './bot-step';

/**
 * A paper bot's walk through a bar on live prices, as kept for its replay: the bar's open, the points of the path
 * where its book changed (a fill, an order taken, a trailing stop's new extreme, its watched band met), in order,
 * and the range the path had reached at the last of them. Walking these points again from the open gives the
 * same account: between two of them nothing happened, so the prices in between changed nothing
 */
export interface PaperPath {
  open: number;
  points: number[];
  low: number;
  high: number;
}

/** What a price did to the paper account: the log, a limit broken, and the bar's path when the book changed */
export interface TickOutcome extends BarOutcome {
  path?: PaperPath;
}

const DAY_MS = 86_400_000;

/** A paper market order's status until the next bar's open, where the simulated broker fills it */
export const PAPER_NEXT_OPEN = 'NEXT_OPEN';
const fmt = (v: number) => v.toFixed(2);

/**
 * The strategy's view of the paper account. While the bot warms up on history it answers as the account stands
 * (flat, with the budget) and drops what the strategy sends, so only the strategy's indicators learn from the past;
 * once trading, every order passes the bot's own limits before it reaches the simulated broker.
 */
class PaperPort implements OrderPort {
  warming = true;
  /** The limit an order broke on this bar (the bot stops after the bar) */
  breach: BarOutcome['breach'];
  /** Orders that reached the broker since the account last logged them (a fill's reactions, the bar's orders) */
  readonly sent: OrderView[] = [];
  private refusedId = -1;

  constructor(
    private readonly broker: SimBroker,
    private readonly checkOrder: (request: OrderRequest) => BarOutcome['breach'],
  ) {}

  get positionQty() {
    return this.broker.positionQty;
  }
  get entryPrice() {
    return this.broker.entryPrice;
  }
  get liquidationPrice() {
    return this.broker.liquidationPrice;
  }
  get walletBalance() {
    return this.broker.walletBalance;
  }
  get leverage() {
    return this.broker.leverage;
  }
  get inFlightOrders() {
    return this.broker.inFlightOrders;
  }
  get openOrders() {
    return this.broker.openOrders;
  }
  setLeverage(leverage: number): void {
    this.broker.setLeverage(leverage);
  }
  roundQty(qty: number): number {
    return this.broker.roundQty(qty);
  }
  roundPrice(price: number): number {
    return this.broker.roundPrice(price);
  }
  submit(request: OrderRequest): OrderView {
    if (this.warming) return this.refused(request, 'warm-up: history bars place no orders');
    if (this.breach) return this.refused(request, this.breach.message);
    const breach = this.checkOrder(request);
    if (breach) {
      this.breach = breach;
      return this.refused(request, breach.message);
    }
    const order = this.broker.submit(request);
    this.sent.push(order);
    return order;
  }
  cancel(orderId: number): boolean {
    return this.broker.cancel(orderId);
  }
  cancelAll(): void {
    this.broker.cancelAll();
  }
  equityAt(price: number): number {
    return this.broker.equityAt(price);
  }

  /** An order that never reached the broker, as the strategy sees a rejection */
  private refused(request: OrderRequest, reason: string): OrderView {
    return {
      id: this.refusedId--,
      side: request.side,
      type: request.type,
      quantity: request.quantity ?? 0,
      price: request.price ?? Number.NaN,
      triggerPrice: request.triggerPrice ?? Number.NaN,
      reduceOnly: request.reduceOnly === true,
      closePosition: request.closePosition === true,
      tag: request.tag ?? '',
      status: 'rejected',
      filledQty: 0,
      avgFillPrice: 0,
      submittedAt: Number.NaN,
      closedAt: Number.NaN,
      reason,
    };
  }
}

/**
 * A paper bot's account: the engine's simulated futures broker (fees, slippage, funding, liquidation with the
 * symbol's brackets) driven by the bot's closed bars, the strategy through the engine's `StrategyDriver`, and the
 * bot's own risk limits before every order. Deterministic: the same bars give the same fills, which is how a
 * resumed bot rebuilds its account (see `BotSession`).
 */
export class PaperAccount {
  private readonly series: BarSeries;
  private readonly broker: SimBroker;
  private readonly port: PaperPort;
  private readonly driver: StrategyDriver;
  private readonly budget: number;
  private last: BotBar | undefined;
  /** Wallet at the start of the current UTC day (today's realized PnL is measured from it) */
  private dayWallet: number;
  private day = Number.NaN;
  private peakEquity: number;
  /**
   * The bar in progress, opened in the series and walked on live prices (`begin`, `tick`) until `trade` closes
   * it: its open time and its path so far
   */
  private forming: { openTime: number; path: PaperPath } | undefined;

  constructor(
    type: StrategyType,
    params: Record<string, unknown>,
    intervalMs: number,
    config: BrokerConfig,
    /** The bot's limits, judged for its orders as the pipeline judges `origin`'s (a bot's, an agent's) */
    private readonly preTrade: { limits: BotRiskLimits; origin: 'bot' | 'agent' },
  ) {
    this.budget = config.initialBalance;
    this.dayWallet = this.budget;
    this.peakEquity = this.budget;
    this.series = new BarSeries(intervalMs, 64);
    this.broker = new SimBroker(config, this.series, true);
    this.port = new PaperPort(this.broker, (r) => this.checkOrder(r));
    this.driver = new StrategyDriver(type, params, this.series, this.port);
    // A fill is answered inside its bar (a grid's counter-order, a DCA take-profit), as a live bot answers it
    this.driver.reactInsideBars(this.broker);
  }

  /** A history bar before the bot's start: the strategy sees it, nothing trades */
  warm(bar: BotBar): void {
    const i = this.append(bar);
    this.driver.onBarClosed(i, []);
  }

  /**
   * A bar closed while the bot trades: fills and funding on the bar (each fill answered by the strategy as it
   * happens), then the strategy's step on the bar; `price`: the latest price when it is newer than the close (the
   * session's first step, at the start)
   */
  trade(bar: BotBar, price?: number, recorded?: PaperPath): BarOutcome {
    this.port.warming = false;
    const broker = this.broker;
    const barTime = bar.openTime;
    this.noteDay(barTime);
    this.port.breach = undefined;
    // A replay of a bar walked on live prices: its points again (their lines were logged when they happened)
    if (recorded) this.walkRecorded(barTime, recorded);
    const log: BotLogEntry[] = [];
    const forming = this.forming?.openTime === barTime;
    this.forming = undefined;
    const fillsBefore = broker.fills.length;
    const closedBefore = broker.closedOrders.length;
    if (forming) {
      // The rest of the bar: its range past what the path reached, then its close
      this.closeForming(bar);
      broker.finishBar();
    } else broker.processBar(this.append(bar));
    const i = this.series.length - 1;
    this.last = bar;
    log.push(...this.barLog(fillsBefore, closedBefore, barTime));
    // Orders the strategy placed in answer to the bar's fills, at the fills
    this.logSent(log, barTime);
    if (this.port.breach) return { log, breach: this.port.breach };
    const limitBreach = this.checkAccount();
    if (limitBreach) return { log, breach: limitBreach };

    broker.unseenFills = 0;
    this.driver.onBarClosed(i, broker.newFills, price);
    if (this.port.sent.length > 0) log.push(stepSignal(bar, price, this.port.sent.length));
    this.logSent(log, barTime);
    const breach = this.port.breach;
    return breach ? { log, breach } : { log };
  }

  /** The fills and the closed orders (canceled, refused) since the counts given, as log lines of `barTime` */
  private barLog(fillsBefore: number, closedBefore: number, barTime: number): BotLogEntry[] {
    const broker = this.broker;
    const log: BotLogEntry[] = [];
    for (const f of broker.fills.slice(fillsBefore)) {
      log.push({
        kind: 'order_filled',
        message:
          f.liquidity === 'liquidation'
            ? `Liquidated: ${f.side} ${f.quantity} at ${f.price}`
            : `Filled ${f.side} ${f.quantity} at ${f.price} (fee ${fmt(f.fee)} USDT)`,
        data: {
          barTime,
          orderId: f.orderId,
          side: f.side,
          quantity: f.quantity,
          price: f.price,
          fee: f.fee,
          realizedPnl: f.realizedPnl,
          positionAfter: f.positionAfter,
          liquidity: f.liquidity,
        },
      });
    }
    for (const o of broker.closedOrders.slice(closedBefore)) {
      if (o.status === 'filled') continue;
      log.push({
        kind: o.status === 'canceled' ? 'order_canceled' : 'order_refused',
        message: `${o.status === 'canceled' ? 'Canceled' : 'Refused'} ${o.side} ${o.type} ${o.quantity}${o.reason ? `: ${o.reason}` : ''}`,
        data: { barTime, orderId: o.id, side: o.side, type: o.type, status: o.status, reason: o.reason },
      });
    }
    return log;
  }

  /** A bar of a new UTC day: today's PnL is measured from the wallet as it stands now */
  private noteDay(barTime: number): void {
    const day = Math.floor(barTime / DAY_MS);
    if (day === this.day) return;
    this.day = day;
    this.dayWallet = this.broker.walletBalance;
  }

  /**
   * The bar in progress opens in the series at `open` (the kline's open, or the start price for the bar of the
   * start) as a one-price bar: funding, the orders in flight taken there; its path starts
   */
  private openForming(openTime: number, open: number): void {
    const i = this.append({ openTime, open, high: open, low: open, close: open, volume: 0 });
    this.forming = { openTime, path: { open, points: [], low: open, high: open } };
    this.broker.beginBar(i);
  }

  /** The forming bar completed with the closed bar's figures (its open stays where the path started) */
  private closeForming(bar: BotBar): void {
    const open = this.series.open[this.series.length - 1] as number;
    this.series.replaceLast(
      bar.openTime,
      open,
      Math.max(open, bar.high),
      Math.min(open, bar.low),
      bar.close,
      bar.volume,
    );
  }

  /**
   * A price of the bar in progress (a forming candle: its range and last price so far). The paper book walks there
   * from where it stood: to a new low or high first (in the bar's direction), then to the last price, filling and
   * answering what the way meets, as the exchange would have. Undefined before trading, or for a candle not of the
   * bar after the last traded one (a bar missed: the close catches it up). The path comes back when the book changed
   */
  tick(k: FormingBar): TickOutcome | undefined {
    if (this.port.warming || this.last === undefined) return undefined;
    const opens = this.forming?.openTime !== k.openTime;
    if (opens && (this.forming !== undefined || k.openTime !== this.last.openTime + this.series.intervalMs))
      return undefined;
    const broker = this.broker;
    this.port.breach = undefined;
    const changes = broker.changes;
    const log = this.walkLogged(k.openTime, () => {
      // The bar's first price opens it: what was in flight reaches the book at its open
      if (opens) this.openForming(k.openTime, k.open);
      const path = (this.forming as { path: PaperPath }).path;
      const up = k.close >= path.open;
      for (const p of [up ? k.low : k.high, up ? k.high : k.low, k.close]) {
        const before = broker.changes;
        if (p === k.close) broker.moveTo(p);
        else broker.extendTo(p);
        if (broker.changes !== before) path.points.push(p);
      }
    });
    if (broker.changes === changes) return { log };
    const path = (this.forming as { path: PaperPath }).path;
    const range = broker.pathRange;
    path.low = range.low;
    path.high = range.high;
    // The account's own limits are judged at the close (and before every order): a replay walks only the kept
    // points, so a judgement at other prices would make its figures differ
    const outcome: TickOutcome = { log, path: { ...path, points: [...path.points] } };
    if (this.port.breach) outcome.breach = this.port.breach;
    return outcome;
  }

  /**
   * After a restart inside a bar walked on live prices: its recorded points walked again, so the account stands
   * where it stood (their lines are in the log already); later prices go on from there
   */
  resumeForming(openTime: number, recorded: PaperPath): void {
    if (this.last === undefined) return;
    if (this.forming?.openTime !== openTime && openTime !== this.last.openTime + this.series.intervalMs)
      return;
    this.walkRecorded(openTime, recorded);
  }

  /**
   * The recorded points of a bar walked on live prices (a replay), past those this account walked already; the bar
   * is opened first if it is not. What they did is in the log already: a point is kept after its lines
   */
  private walkRecorded(openTime: number, recorded: PaperPath): void {
    if (this.forming?.openTime !== openTime) {
      if (this.forming !== undefined) return;
      this.openForming(openTime, recorded.open);
    }
    const path = (this.forming as { path: PaperPath }).path;
    const broker = this.broker;
    const rest = recorded.points.slice(path.points.length);
    this.walkLogged(openTime, () => {
      for (const p of rest) {
        broker.moveTo(p);
        path.points.push(p);
      }
    });
    broker.reached(recorded.low, recorded.high);
    path.low = Math.min(path.low, recorded.low);
    path.high = Math.max(path.high, recorded.high);
  }

  /**
   * Runs a walk along the bar's path and returns its lines (fills, closed orders, orders sent by the reactions),
   * each marked `pathPoint`: a replay knows them as logged when they happened
   */
  private walkLogged(barTime: number, walk: () => void): BotLogEntry[] {
    const broker = this.broker;
    const fillsBefore = broker.fills.length;
    const closedBefore = broker.closedOrders.length;
    walk();
    const log = this.barLog(fillsBefore, closedBefore, barTime);
    this.logSent(log, barTime);
    const point = this.forming?.path.points.length ?? 0;
    for (const entry of log) entry.data.pathPoint = point;
    return log;
  }

  /** The orders that reached the broker since the last call, one `order_sent` line each */
  private logSent(log: BotLogEntry[], barTime: number): void {
    for (const o of this.port.sent.splice(0)) {
      log.push({
        kind: 'order_sent',
        message: orderWords(o),
        data: { barTime, orderId: o.id, side: o.side, type: o.type, quantity: o.quantity, price: o.price },
      });
    }
  }

  /**
   * The session's first step has just been traded (the last bar closed at the start): its orders reach the book at
   * the start price now, as the exchange would take them, not when the bar in progress closes. The bar in progress
   * (`openTime`) stands as a forming bar at that price (a market order fills there, a marketable limit too, the rest
   * rest); at its close `trade` completes it. The log lines carry `barTime` (the first step's bar). Deterministic,
   * so a resumed session does the same at the same point of its replay
   */
  begin(openTime: number, price: number, barTime: number): BarOutcome {
    const broker = this.broker;
    const fillsBefore = broker.fills.length;
    const closedBefore = broker.closedOrders.length;
    this.port.breach = undefined;
    this.noteDay(openTime);
    this.openForming(openTime, price);
    const log = this.barLog(fillsBefore, closedBefore, barTime);
    this.logSent(log, barTime);
    return this.port.breach ? { log, breach: this.port.breach } : { log };
  }

  /** Stops trading: cancels the resting orders; the session's PnL values the position at the last close */
  close(): { sessionPnl: number; canceled: number } {
    const canceled = this.broker.openOrders.length + this.broker.inFlightOrders.length;
    this.broker.cancelAll();
    return { sessionPnl: this.figures().equity - this.budget, canceled };
  }

  figures(): PaperFigures {
    const b = this.broker;
    // Inside a bar walked on live prices, the price where the walk stands (an order judged at a fill sees the
    // fill's price, in the replay too)
    const mark = this.forming ? b.pathPrice : this.last?.close;
    const unrealized = mark === undefined || b.positionQty === 0 ? 0 : b.positionQty * (mark - b.entryPrice);
    const realized = b.walletBalance - this.budget;
    const time = this.last?.openTime ?? 0;
    return {
      realizedPnl: realized,
      unrealizedPnl: unrealized,
      todayPnl: b.walletBalance - this.dayWallet + unrealized,
      positionQty: b.positionQty,
      entryPrice: b.positionQty === 0 ? null : b.entryPrice,
      markPrice: mark ?? null,
      equity: b.walletBalance + unrealized,
      peakEquity: Math.max(this.peakEquity, b.walletBalance + unrealized),
      openOrders: [...b.inFlightOrders, ...b.openOrders].map((o) => ({
        clientOrderId: `paper-${o.id}`,
        side: o.side === 'buy' ? 'BUY' : 'SELL',
        type: o.type.toUpperCase().replaceAll('-', '_'),
        price: Number.isFinite(o.price) ? String(o.price) : null,
        quantity: String(o.quantity),
        triggerPrice: triggerOf(o),
        closePosition: o.closePosition,
        // Submitted at a close, an order reaches the paper book at the next bar's open: a resting one works from
        // then on as if open now; a market one fills there
        status: o.status === 'open' || o.type !== 'market' ? 'NEW' : PAPER_NEXT_OPEN,
        reduceOnly: o.reduceOnly,
        time: Number.isFinite(o.submittedAt) ? o.submittedAt : time,
      })),
    };
  }

  private append(bar: BotBar): number {
    this.series.append(bar.openTime, bar.open, bar.high, bar.low, bar.close, bar.volume);
    return this.series.length - 1;
  }

  /** Daily loss and drawdown at the bar's close (a breach stops the bot before the strategy acts on the bar) */
  private checkAccount(): BarOutcome['breach'] {
    return this.judge(undefined, (q) => q);
  }

  private checkOrder(request: OrderRequest): BarOutcome['breach'] {
    return this.judge(request, (q) => this.broker.roundQty(q));
  }

  /** The pre-trade pipeline's bot limits on the paper broker's figures */
  private judge(request: OrderRequest | undefined, roundQty: (qty: number) => number): BarOutcome['breach'] {
    const f = this.figures();
    this.peakEquity = Math.max(this.peakEquity, f.equity);
    return judgeBotOrder(this.preTrade.origin, {
      request,
      figures: f,
      peakEquity: this.peakEquity,
      limits: this.preTrade.limits,
      roundQty,
    }).breach;
  }
}
