import type { EquityCurve } from '../backtest/equity-curve';
import type { BarSeries } from '../bars/bars';
import { assertFinite, EngineInputError } from '../errors';
import { maxNotionalAt } from '../futures/brackets';
import { nextFundingTime } from '../futures/funding';
import { liquidationPriceOneWay } from '../futures/liquidation';
import { StepRounder } from '../math/rounding';
import type { BrokerConfig } from './config';
import type { OrderPort } from './order-port';
import { type Fill, Order, type OrderRequest, type OrderView, type Trade } from './orders';

const EMPTY_TAG = '';
/** Why a reduce-only order that would not reduce expires (the one refusal that expires rather than rejects) */
const REDUCE_ONLY_REFUSAL = 'reduce-only order would not reduce the position (-2022)';

/**
 * A one-way USDⓈ-M futures account for one symbol, simulated bar by bar with no lookahead.
 *
 * Orders submitted while bar i closes reach the exchange at the open of bar i + 1: market orders fill at that open,
 * the rest rest and fill inside later bars. Inside a bar the price is assumed to travel open → low → high → close
 * when the bar closes up, open → high → low → close when it closes down; triggers fire in the order that path meets
 * them, and the liquidation price is re-derived after every fill. The trade price stands in for the mark price.
 *
 * Hot-path rule: a bar where nothing can trigger costs two comparisons (cached trigger bounds), no allocation.
 */
export class SimBroker implements OrderPort {
  positionQty = 0;
  entryPrice = 0;
  liquidationPrice = Number.NaN;
  // Set in the constructor, but initialised here: a field only declared starts out undefined, V8 then keeps it as
  // a tagged value and every write of a fractional balance allocated a new heap number (see CONTEXT.md, Speed)
  walletBalance = 0;
  leverage = 1;
  /** Margin held by the position in isolated mode */
  isolatedWallet = 0;
  feesPaid = 0;
  fundingPaid = 0;
  realizedPnl = 0;
  liquidationFees = 0;
  liquidations = 0;
  barsInPosition = 0;
  /** Closed round trips, counted even when history is not retained */
  tradeCount = 0;
  /** Executions (liquidations included), counted even when history is not retained or no fill object is built */
  fillCount = 0;
  winningTrades = 0;
  grossProfit = 0;
  grossLoss = 0;
  /** Orders the exchange's rules rejected (margin, lot, notional…), counted even when history is not retained */
  rejectedOrders = 0;
  /** The first rejection's reason ('' until one): what a run that never traded tells its reader */
  firstRejection = '';

  readonly inFlightOrders: Order[] = [];
  readonly openOrders: Order[] = [];
  readonly closedOrders: Order[] = [];
  readonly fills: Fill[] = [];
  readonly trades: Trade[] = [];
  /** Fills since the runner last drained them (handed to the strategy's onFill) */
  readonly newFills: Fill[] = [];
  /** Executions since the runner last reacted, counted even when no fill object is built */
  unseenFills = 0;
  /**
   * Build a fill object per execution (for the history and the strategy's onFill). A backtest that keeps no
   * history turns it off for a strategy that ignores fills: freezing one cost more than the rest of its accounting.
   */
  buildFills = true;
  /**
   * The strategy's reaction to a fill, run at the fill as a live bot's would be (its counter-order or exits placed
   * the moment the fill is known, not at the bar's close). Orders it submits reach the book at the fill's point of
   * the bar's price path (a market order fills there, with slippage) and are worked for the rest of the bar.
   * Unset: fills wait in `newFills` for the runner to hand over after the bar.
   */
  fillReaction: ((fill: Fill) => void) | undefined = undefined;
  /**
   * The strategy's reaction to a price beyond the band it watches (`watchPrice`), run at the band's edge on the
   * bar's path (or at the open when the open gapped past it); the band is cleared first. Orders it submits are taken
   * there, as a fill reaction's are. `barIndex` is the bar whose path met the band
   */
  priceReaction: ((price: number, barIndex: number) => void) | undefined = undefined;
  /**
   * Counts every change of the account's book on the bar's path: an order opened, filled, canceled or refused, a
   * liquidation, a trailing stop's new extreme, a watched band met. A paper runtime walking live prices keeps the
   * points of its path where this moved: walking those points again gives the same account
   */
  changes = 0;
  /** True while `accept` runs: orders a reaction submits are taken by its loop, not by a nested one */
  private accepting = false;
  // The band the strategy watches (−∞/∞: none)
  private watchLow = Number.NEGATIVE_INFINITY;
  private watchHigh = Number.POSITIVE_INFINITY;
  /** Where the price stands on the bar's path while it is walked point by point (`beginBar`, `moveTo`) */
  private pathAt = Number.NaN;
  /** The lowest and highest prices the bar's path has reached so far */
  private pathLow = Number.NaN;
  private pathHigh = Number.NaN;

  // A market order queued as plain numbers by a fused backtest loop (see queueMarket): side +1/−1, 0 for none
  private queuedSide = 0;
  private queuedQty = 0;
  private queuedTag = EMPTY_TAG;
  // The execution in progress: the quantity and price asked for when `execute` is called, what filled and where once
  // it returns '' (fire() copies that onto the order). Numbers travel between the fill steps in fields, not
  // arguments: V8 boxes a number argument into a new heap object when it does not inline the call, and these
  // steps are too big to inline (a reversal's fill allocated three heap numbers that way: 7.7 MB per 5 M-bar run).
  private execQty = 0;
  private execPrice = 0;

  /** Largest position notional the brackets allow at the current leverage (set with the leverage) */
  private maxNotional = 0;
  private readonly qtyRounder: StepRounder;
  private readonly priceRounder: StepRounder;
  private nextOrderId = 1;
  private barIndex = -1;
  private nextFunding = Number.NaN;
  private fundingPtr = 0;
  private fundingBarFor = Number.NaN;
  private fundingBarIndex = 0;
  // Cached trigger bounds: something may fire when low ≤ downMax or high ≥ upMin
  private downMax = Number.NEGATIVE_INFINITY;
  private upMin = Number.POSITIVE_INFINITY;
  private trailingCount = 0;
  private dirty = false;
  // The open round trip
  private tSide = 0;
  /** Bar of the round trip's first fill (its time is only read for the trade history) */
  private tEntryBar = 0;
  private tEntryValue = 0;
  private tEntryQty = 0;
  private tExitValue = 0;
  private tExitQty = 0;
  private tMaxQty = 0;
  private tRealized = 0;
  private tFees = 0;
  private tFunding = 0;

  constructor(
    readonly config: BrokerConfig,
    private readonly bars: BarSeries,
    /** Keep fills, trades and closed orders (off in sweeps: they would only feed the garbage collector) */
    readonly retainHistory = true,
  ) {
    this.walletBalance = config.initialBalance;
    this.leverage = config.leverage;
    this.maxNotional = maxNotionalAt(config.brackets, config.leverage);
    this.qtyRounder = new StepRounder(config.stepSize);
    this.priceRounder = new StepRounder(config.tickSize);
  }

  roundQty(qty: number): number {
    return this.qtyRounder.round(qty, 'down');
  }

  roundPrice(price: number): number {
    return this.priceRounder.round(price, 'nearest');
  }

  equityAt(price: number): number {
    return this.walletBalance + this.positionQty * (price - this.entryPrice);
  }

  /** Changes leverage (POST /fapi/v1/leverage); only while flat, as a simplification */
  setLeverage(leverage: number): void {
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > 125) {
      throw new EngineInputError(`leverage must be an integer from 1 to 125, got ${leverage}`);
    }
    if (this.positionQty !== 0) throw new EngineInputError('leverage can only change while flat');
    this.leverage = leverage;
    this.maxNotional = maxNotionalAt(this.config.brackets, leverage);
  }

  submit(request: OrderRequest): OrderView {
    const { side, type } = request;
    if (side !== 'buy' && side !== 'sell')
      throw new EngineInputError(`order side must be buy or sell, got ${side}`);
    const closePosition = request.closePosition === true;
    if (closePosition && type !== 'stop-market' && type !== 'take-profit-market') {
      throw new EngineInputError(
        'closePosition is only allowed on stop-market and take-profit-market orders',
      );
    }
    let quantity = 0;
    if (!closePosition) {
      assertFinite(request.quantity ?? Number.NaN, 'order quantity');
      quantity = this.roundQty(request.quantity as number);
    }
    let price = Number.NaN;
    let trigger = Number.NaN;
    let callback = Number.NaN;
    let activation = Number.NaN;
    if (type === 'limit') {
      assertFinite(request.price ?? Number.NaN, 'limit order price');
      price = this.roundPrice(request.price as number);
    } else if (type === 'stop-market' || type === 'take-profit-market') {
      assertFinite(request.triggerPrice ?? Number.NaN, `${type} triggerPrice`);
      trigger = this.roundPrice(request.triggerPrice as number);
    } else if (type === 'trailing-stop-market') {
      callback = request.callbackRate ?? Number.NaN;
      if (!(callback >= 0.001 && callback <= 0.1)) {
        throw new EngineInputError(`trailing stop callbackRate must be from 0.001 to 0.1, got ${callback}`);
      }
      if (request.activationPrice !== undefined) {
        assertFinite(request.activationPrice, 'trailing stop activationPrice');
        activation = this.roundPrice(request.activationPrice);
      }
    } else if (type !== 'market') {
      throw new EngineInputError(`unknown order type ${String(type)}`);
    }
    const order = new Order(
      this.nextOrderId++,
      side,
      type,
      quantity,
      price,
      trigger,
      callback,
      activation,
      request.reduceOnly === true || closePosition,
      closePosition,
      request.tag ?? EMPTY_TAG,
      this.time,
    );
    this.inFlightOrders.push(order);
    return order;
  }

  /**
   * Fused backtest loops that keep no history: queues a market order as `submit({ type: 'market', side, quantity,
   * tag })` would, filled at the next bar's open by the same rules, without the order object nobody would read
   * (building one per signal was a large part of a round trip). One at a time; `cancelAll` drops it.
   */
  queueMarket(side: 'buy' | 'sell', quantity: number, tag: string): void {
    if (this.retainHistory)
      throw new EngineInputError('queueMarket is only for backtests that keep no history');
    if (this.queuedSide !== 0) throw new EngineInputError('a queued market order is already waiting');
    assertFinite(quantity, 'order quantity');
    this.queuedSide = side === 'buy' ? 1 : -1;
    this.queuedQty = this.roundQty(quantity);
    this.queuedTag = tag;
    // The id the order would have had, so later orders keep theirs
    this.nextOrderId++;
  }

  /** The band whose edges wake `priceReaction` (see `StrategyContext.watchPrice`); ±Infinity: that side is off */
  watchPrice(low: number, high: number): void {
    this.watchLow = low;
    this.watchHigh = high;
    this.dirty = true;
  }

  private watching(): boolean {
    return this.watchLow !== Number.NEGATIVE_INFINITY || this.watchHigh !== Number.POSITIVE_INFINITY;
  }

  cancel(orderId: number): boolean {
    if (this.cancelIn(this.inFlightOrders, orderId) || this.cancelIn(this.openOrders, orderId)) {
      this.dirty = true;
      return true;
    }
    return false;
  }

  private cancelIn(list: Order[], orderId: number): boolean {
    for (let at = 0; at < list.length; at++) {
      if ((list[at] as Order).id === orderId) {
        this.close(list, at, 'canceled', '');
        return true;
      }
    }
    return false;
  }

  cancelAll(): void {
    this.queuedSide = 0;
    // Nothing to cancel (a crossing strategy calls this on every signal): the cached bounds stay valid
    if (this.inFlightOrders.length === 0 && this.openOrders.length === 0) return;
    while (this.inFlightOrders.length > 0) this.close(this.inFlightOrders, 0, 'canceled', '');
    while (this.openOrders.length > 0) this.close(this.openOrders, 0, 'canceled', '');
    this.dirty = true;
  }

  /**
   * Runs bar i against the account: accept orders, settle funding, fire triggers and liquidation. Kept tiny so it
   * inlines into the backtest loop: the usual bar (nothing pending, no funding, no trigger in range) returns here.
   */
  processBar(i: number): void {
    this.barIndex = i;
    if (
      this.inFlightOrders.length === 0 &&
      this.queuedSide === 0 &&
      !this.dirty &&
      this.trailingCount === 0 &&
      this.fundingNotDue(i) &&
      !this.rangeReaches(i)
    ) {
      if (this.positionQty !== 0) this.barsInPosition++;
      return;
    }
    this.processBarFully(i);
  }

  /**
   * Backtest fast path: where a run of quiet bars from `from` (nothing pending, no funding due, no trigger or
   * liquidation in the bar's range) must end at the latest: `from` itself when something is pending, else the next
   * funding bar or `to`. Inside it a bar is quiet while its low stays above `quietDown` and its high below
   * `quietUp`; such a bar changes nothing but `barsInPosition` (see `creditQuietBars`).
   */
  quietEnd(from: number, to: number): number {
    if (this.inFlightOrders.length > 0 || this.queuedSide !== 0 || Number.isNaN(this.nextFunding))
      return from;
    if (this.dirty) this.recomputeBounds();
    if (this.trailingCount > 0) return from;
    // Stop before the next funding bar (found by binary search, not by reading every bar's time)
    return Math.min(to, this.fundingBar(from));
  }

  /**
   * Open time of the bar being processed (NaN before the first). Read only where it is needed, not on every bar:
   * on the event bars of a backtest this column is a cache miss (the quiet loops never touch it).
   */
  private get time(): number {
    return this.barIndex < 0 ? Number.NaN : (this.bars.openTime[this.barIndex] as number);
  }

  /**
   * No funding time falls at or before bar i's open. Known from the index alone before the funding bar that
   * `fundingBar` found (bars are only ever appended, so the bars before it stay before the funding time).
   */
  private fundingNotDue(i: number): boolean {
    return (
      (this.fundingBarFor === this.nextFunding && i < this.fundingBarIndex) || this.time < this.nextFunding
    );
  }

  /** Below this low a bar may fire something (valid after `quietEnd`) */
  get quietDown(): number {
    return this.downMax;
  }

  /** Above this high a bar may fire something (valid after `quietEnd`) */
  get quietUp(): number {
    return this.upMin;
  }

  /** Accounts for `count` quiet bars run outside processBar */
  creditQuietBars(count: number): void {
    if (this.positionQty !== 0) this.barsInPosition += count;
  }

  /** Runs the quiet bars from `from` up to `to`, writing their equity; returns the first bar that needs processBar */
  skipQuiet(from: number, to: number, equity: EquityCurve): number {
    const end = this.quietEnd(from, to);
    if (end <= from) return from;
    const qty = this.positionQty;
    if (qty === 0 && this.downMax === Number.NEGATIVE_INFINITY && this.upMin === Number.POSITIVE_INFINITY) {
      equity.recordConstant(from, end, this.walletBalance);
      return end;
    }
    const j = equity.recordQuiet(
      this.bars,
      from,
      end,
      this.downMax,
      this.upMin,
      this.walletBalance,
      qty,
      this.entryPrice,
    );
    this.creditQuietBars(j - from);
    return j;
  }

  /** Index of the first bar at or after `from` whose open time reaches the next funding time (cached per funding) */
  private fundingBar(from: number): number {
    const target = this.nextFunding;
    if (this.fundingBarFor === target && this.fundingBarIndex >= from) return this.fundingBarIndex;
    const time = this.bars.openTime;
    const n = this.bars.length;
    let lo = from;
    let hi = n;
    // Bars are evenly spaced unless the data has gaps: check the bar the interval predicts first. A blind binary
    // search over a long series costs ~20 cache misses, once per funding period of every run of a sweep
    if (from < n) {
      const guess = from + Math.ceil((target - (time[from] as number)) / this.bars.intervalMs);
      if (guess > from && guess <= n) {
        if ((time[guess - 1] as number) < target) {
          lo = guess;
          if (guess < n && (time[guess] as number) >= target) hi = guess;
        } else hi = guess - 1;
      }
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((time[mid] as number) < target) lo = mid + 1;
      else hi = mid;
    }
    this.fundingBarFor = target;
    this.fundingBarIndex = lo;
    return lo;
  }

  /**
   * Bar i's range reaches a cached trigger bound. An infinite bound is not compared: a backtest's quiet loop streams
   * only the range column of the bound it checks, so the other column would be a cache miss on every event bar.
   */
  private rangeReaches(i: number): boolean {
    const bars = this.bars;
    return (
      (this.downMax !== Number.NEGATIVE_INFINITY && (bars.low[i] as number) <= this.downMax) ||
      (this.upMin !== Number.POSITIVE_INFINITY && (bars.high[i] as number) >= this.upMin)
    );
  }

  private processBarFully(i: number): void {
    const bars = this.bars;
    const o = bars.open[i] as number;
    // Also when nextFunding is still NaN (the first bar): settleFunding sets it
    if (!this.fundingNotDue(i)) this.settleFunding(o);
    if (this.inFlightOrders.length > 0) this.accept(o);
    if (this.queuedSide !== 0) this.acceptQueued(o);
    if (this.dirty) this.recomputeBounds();
    if (this.openOrders.length > 0 || this.positionQty !== 0 || this.watching()) {
      if (this.trailingCount > 0 || this.rangeReaches(i)) {
        this.walk(o, bars.high[i] as number, bars.low[i] as number, bars.close[i] as number);
      }
      if (this.positionQty !== 0) this.barsInPosition++;
    }
  }

  /**
   * Bar i traded along a known price path: its open (funding, orders in flight accepted), then `path`'s prices in
   * order, then the bar's low and high where the path did not reach them (the usual order for the bar's direction)
   * and its close. A backtest on recorded prices inside its bars, and the replay of a paper bot that walked live
   * prices. `reached`: prices the path is known to have reached where nothing happened (a paper bot keeps only the
   * points where something did): the bar's extremes within them are not walked again
   */
  processBarAlong(i: number, path: ArrayLike<number>, reached?: { low: number; high: number }): void {
    this.beginBar(i);
    for (let k = 0; k < path.length; k++) this.moveTo(path[k] as number);
    if (reached !== undefined) this.reached(reached.low, reached.high);
    this.finishBar();
  }

  /** The path is known to have reached `low` and `high` where nothing happened (see `processBarAlong`) */
  reached(low: number, high: number): void {
    this.pathLow = Math.min(this.pathLow, low);
    this.pathHigh = Math.max(this.pathHigh, high);
  }

  /** Where the path of the bar being walked stands (NaN before the first `beginBar`) */
  get pathPrice(): number {
    return this.pathAt;
  }

  /** The lowest and highest prices the path of the bar being walked has reached */
  get pathRange(): { low: number; high: number } {
    return { low: this.pathLow, high: this.pathHigh };
  }

  /** Bar i opens and its path starts at the open: funding, orders in flight accepted, what the open gaps past */
  beginBar(i: number): void {
    this.barIndex = i;
    const o = this.bars.open[i] as number;
    if (!this.fundingNotDue(i)) this.settleFunding(o);
    if (this.inFlightOrders.length > 0) this.accept(o);
    if (this.queuedSide !== 0) this.acceptQueued(o);
    if (this.dirty) this.recomputeBounds();
    this.pathAt = o;
    this.pathLow = o;
    this.pathHigh = o;
    this.segment(o, o);
  }

  /** The bar begun with `beginBar` goes on to `price`: everything met on the way fires, in path order */
  moveTo(price: number): void {
    assertFinite(price, 'path price');
    if (this.dirty) this.recomputeBounds();
    this.segment(this.pathAt, price);
    this.pathAt = price;
    if (price < this.pathLow) this.pathLow = price;
    if (price > this.pathHigh) this.pathHigh = price;
  }

  /**
   * The bar begun with `beginBar` ends: its low and high where the path did not reach them (in the bar's
   * direction: low first on an up bar), then its close
   */
  finishBar(): void {
    const i = this.barIndex;
    const bars = this.bars;
    const c = bars.close[i] as number;
    const low = bars.low[i] as number;
    const high = bars.high[i] as number;
    const up = c >= (bars.open[i] as number);
    this.extendTo(up ? low : high);
    this.extendTo(up ? high : low);
    this.moveTo(c);
    if (this.positionQty !== 0) this.barsInPosition++;
  }

  /** Walks to a bar's extreme if the path has not reached it yet */
  extendTo(extreme: number): void {
    if (extreme < this.pathLow || extreme > this.pathHigh) this.moveTo(extreme);
  }

  /** Closes the open round trip at `price` for reporting (end of a backtest); no order is sent */
  markToMarket(price: number): number {
    return this.equityAt(price);
  }

  /**
   * Settles every funding time up to this bar's open, at the open price, with the position held then. On bars longer
   * than the funding period (1d and up) the times inside a bar all settle at the next bar's open, each at its own
   * rate: a month of 1M holds ~90. A position closed inside the bar pays none of them; one opened inside it pays all.
   */
  private settleFunding(open: number): void {
    const period = this.config.fundingIntervalHours * 3_600_000;
    if (Number.isNaN(this.nextFunding)) {
      this.nextFunding = nextFundingTime(this.time, this.config.fundingIntervalHours);
      if (this.time < this.nextFunding) return;
    }
    while (this.time >= this.nextFunding) {
      if (this.positionQty !== 0) {
        const fee = this.positionQty * open * this.fundingRateAt(this.nextFunding);
        this.walletBalance -= fee;
        this.fundingPaid += fee;
        this.tFunding += fee;
        if (this.config.marginMode === 'isolated') this.isolatedWallet -= fee;
        this.updateLiquidation();
      }
      this.nextFunding += period;
    }
  }

  private fundingRateAt(time: number): number {
    const rates = this.config.fundingRates;
    if (!rates) return this.config.fundingRate;
    while (this.fundingPtr + 1 < rates.time.length && (rates.time[this.fundingPtr + 1] as number) <= time)
      this.fundingPtr++;
    return (rates.time[this.fundingPtr] as number) <= time
      ? (rates.rate[this.fundingPtr] as number)
      : this.config.fundingRate;
  }

  private accept(open: number): void {
    this.accepting = true;
    try {
      this.acceptInFlight(open);
    } finally {
      this.accepting = false;
    }
  }

  private acceptInFlight(open: number): void {
    while (this.inFlightOrders.length > 0) {
      const order = this.inFlightOrders[0] as Order;
      const buy = order.side === 'buy';
      const refusal = this.refusalAtAcceptance(
        order.type,
        buy,
        order.quantity,
        order.reduceOnly,
        order.closePosition,
        order.type === 'limit' ? order.price : open,
        order.triggerPrice,
        open,
      );
      if (refusal !== '') {
        this.noteRejection(refusal);
        this.close(this.inFlightOrders, 0, 'rejected', refusal);
        continue;
      }
      this.inFlightOrders.shift();
      order.status = 'open';
      this.dirty = true;
      this.changes++;
      // A market order fills at once: it never rests, so it skips the open list (fire finds it in no list)
      if (order.type === 'market') {
        this.fire(order, open, 'taker');
        this.react(open);
        continue;
      }
      this.openOrders.push(order);
      if (order.type === 'limit' && (buy ? order.price >= open : order.price <= open)) {
        // Marketable limit: takes liquidity at the open
        this.fire(order, open, 'taker');
        this.react(open);
      } else if (order.type === 'trailing-stop-market' && Number.isNaN(order.activationPrice)) {
        order.extreme = open;
      }
    }
  }

  /**
   * Hands the fills booked so far to `fillReaction` and takes the orders it submits at `price`, the point of the
   * bar's path the fill happened at (inside `accept`, its own loop takes them). A reaction's fill reacts in turn.
   */
  private react(price: number): void {
    const reaction = this.fillReaction;
    if (reaction === undefined || this.newFills.length === 0) return;
    while (this.newFills.length > 0) reaction(this.newFills.shift() as Fill);
    if (this.inFlightOrders.length > 0 && !this.accepting) this.accept(price);
    if (this.dirty) this.recomputeBounds();
  }

  /** The queued market order reaches the exchange: the same acceptance and fill as a submitted one */
  private acceptQueued(open: number): void {
    const dir = this.queuedSide;
    this.queuedSide = 0;
    const qty = this.queuedQty;
    const refusal = this.refusalAtAcceptance('market', dir > 0, qty, false, false, open, Number.NaN, open);
    if (refusal !== '') {
      this.noteRejection(refusal);
      return;
    }
    // A rejected or filled queued order leaves nothing behind (no history is kept)
    this.execQty = qty;
    this.execPrice = open;
    this.execute(0, this.queuedTag, 'market', dir, false, 'taker');
  }

  /** Why the exchange refuses an order when it arrives at a bar opening at `open` ('' if it accepts it) */
  private refusalAtAcceptance(
    type: Order['type'],
    buy: boolean,
    quantity: number,
    reduceOnly: boolean,
    closePosition: boolean,
    ref: number,
    trigger: number,
    open: number,
  ): string {
    if (!closePosition && quantity <= 0) return 'quantity is below the step size';
    if (!reduceOnly && quantity * ref < this.config.minNotional) {
      return `notional must be no smaller than ${this.config.minNotional} (-4164)`;
    }
    const wouldTrigger =
      (type === 'stop-market' && (buy ? trigger <= open : trigger >= open)) ||
      (type === 'take-profit-market' && (buy ? trigger >= open : trigger <= open));
    return wouldTrigger ? 'order would immediately trigger (-2021)' : '';
  }

  /** −1: fires when price falls to its level; +1: when it rises to it */
  private static direction(o: Order): number {
    const buy = o.side === 'buy';
    switch (o.type) {
      case 'limit':
      case 'take-profit-market':
        return buy ? -1 : 1;
      case 'stop-market':
      case 'trailing-stop-market':
        return buy ? 1 : -1;
      default:
        return 0;
    }
  }

  private static level(o: Order): number {
    switch (o.type) {
      case 'limit':
        return o.price;
      case 'stop-market':
      case 'take-profit-market':
        return o.triggerPrice;
      case 'trailing-stop-market':
        return o.side === 'sell' ? o.extreme * (1 - o.callbackRate) : o.extreme * (1 + o.callbackRate);
      default:
        return Number.NaN;
    }
  }

  private recomputeBounds(): void {
    let down = Number.NEGATIVE_INFINITY;
    let up = Number.POSITIVE_INFINITY;
    let trailing = 0;
    for (const o of this.openOrders) {
      if (o.type === 'trailing-stop-market') {
        trailing++;
        continue;
      }
      const level = SimBroker.level(o);
      if (SimBroker.direction(o) < 0) down = Math.max(down, level);
      else up = Math.min(up, level);
    }
    if (this.positionQty > 0 && this.liquidationPrice > 0) down = Math.max(down, this.liquidationPrice);
    if (this.positionQty < 0) up = Math.min(up, this.liquidationPrice);
    down = Math.max(down, this.watchLow);
    up = Math.min(up, this.watchHigh);
    this.downMax = down;
    this.upMin = up;
    this.trailingCount = trailing;
    this.dirty = false;
  }

  private walk(o: number, h: number, l: number, c: number): void {
    const first = c >= o ? l : h;
    const second = c >= o ? h : l;
    this.segment(o, o);
    this.segment(o, first);
    this.segment(first, second);
    this.segment(second, c);
  }

  private trackTrailing(price: number): void {
    if (this.trailingCount === 0) return;
    for (const o of this.openOrders) {
      if (o.type !== 'trailing-stop-market') continue;
      const sell = o.side === 'sell';
      if (Number.isNaN(o.extreme)) {
        if (sell ? price >= o.activationPrice : price <= o.activationPrice) {
          o.extreme = price;
          this.changes++;
        }
      } else if (sell ? price > o.extreme : price < o.extreme) {
        o.extreme = price;
        this.changes++;
      }
    }
  }

  /** Fires, in path order, everything met while price moves from a to b (a === b: only what the open gaps past) */
  private segment(a: number, b: number): void {
    this.trackTrailing(a);
    let cur = a;
    for (let guard = 0; guard < 10_000; guard++) {
      let best: Order | null = null;
      let bestLevel = 0;
      let liquidate = false;
      if (b <= cur) {
        for (const o of this.openOrders) {
          if (SimBroker.direction(o) >= 0) continue;
          const level = SimBroker.level(o);
          if (level >= b && (best === null || level > bestLevel)) {
            best = o;
            bestLevel = level;
          }
        }
        const lp = this.liquidationPrice;
        if (this.positionQty > 0 && lp > 0 && lp >= b && (best === null || lp >= bestLevel)) {
          liquidate = true;
          bestLevel = lp;
        }
        // The band is met after orders and the liquidation at its level: it wakes the strategy on what they left
        const wl = this.watchLow;
        if (!liquidate && wl >= b && (best === null || wl > bestLevel)) {
          cur = this.wake(Math.min(wl, cur));
          continue;
        }
      }
      if (best === null && !liquidate && b >= cur) {
        for (const o of this.openOrders) {
          if (SimBroker.direction(o) <= 0) continue;
          const level = SimBroker.level(o);
          if (level <= b && (best === null || level < bestLevel)) {
            best = o;
            bestLevel = level;
          }
        }
        const lp = this.liquidationPrice;
        if (this.positionQty < 0 && lp <= b && (best === null || lp <= bestLevel)) {
          liquidate = true;
          bestLevel = lp;
        }
        const wh = this.watchHigh;
        if (!liquidate && wh <= b && (best === null || wh < bestLevel)) {
          cur = this.wake(Math.max(wh, cur));
          continue;
        }
      }
      if (liquidate) {
        this.liquidate(bestLevel);
        cur = bestLevel;
        this.react(cur);
        continue;
      }
      if (best === null) break;
      const down = SimBroker.direction(best) < 0;
      // A stop the open gapped past fills at the (worse) current price; a limit keeps its own price
      const at = down ? Math.min(bestLevel, cur) : Math.max(bestLevel, cur);
      if (best.type === 'limit') this.fire(best, best.price, 'maker');
      else this.fire(best, at, 'taker');
      cur = at;
      this.react(cur);
    }
    this.trackTrailing(b);
  }

  /**
   * The watched band is met at `price`: cleared, the strategy woken there, and what it submitted taken at that
   * point (a market order fills there, its fills answered in turn). Returns where the path stands
   */
  private wake(price: number): number {
    this.watchLow = Number.NEGATIVE_INFINITY;
    this.watchHigh = Number.POSITIVE_INFINITY;
    this.dirty = true;
    this.changes++;
    this.priceReaction?.(price, this.barIndex);
    if (this.inFlightOrders.length > 0 && !this.accepting) this.accept(price);
    this.react(price);
    if (this.dirty) this.recomputeBounds();
    return price;
  }

  private fire(order: Order, price: number, liquidity: 'maker' | 'taker'): void {
    const at = order.type === 'market' ? -1 : this.openOrders.indexOf(order);
    this.execQty = order.closePosition ? Math.abs(this.positionQty) : order.quantity - order.filledQty;
    this.execPrice = price;
    const refusal = this.execute(
      order.id,
      order.tag,
      order.type,
      order.side === 'buy' ? 1 : -1,
      order.reduceOnly,
      liquidity,
    );
    if (refusal === '') {
      order.filledQty += this.execQty;
      order.avgFillPrice = this.execPrice;
      this.close(this.openOrders, at, 'filled', '', order);
    } else {
      if (refusal !== REDUCE_ONLY_REFUSAL) this.noteRejection(refusal);
      this.close(
        this.openOrders,
        at,
        refusal === REDUCE_ONLY_REFUSAL ? 'expired' : 'rejected',
        refusal,
        order,
      );
    }
  }

  private noteRejection(reason: string): void {
    if (this.rejectedOrders === 0) this.firstRejection = reason;
    this.rejectedOrders++;
  }

  /**
   * Executes `execQty` in direction `dir` at `execPrice` (plus slippage for takers): the reduce-only, notional-cap
   * and margin checks, then the fill. Returns '' when it filled (`execQty`/`execPrice` then say how much and where),
   * else why not (`REDUCE_ONLY_REFUSAL`: the order expires; anything else: it is rejected).
   */
  private execute(
    orderId: number,
    tag: string,
    type: Order['type'],
    dir: number,
    reduceOnly: boolean,
    liquidity: 'maker' | 'taker',
  ): string {
    const cfg = this.config;
    const pos = this.positionQty;
    const price = this.execPrice;
    let qty = this.execQty;
    if (reduceOnly) {
      if (pos === 0 || Math.sign(pos) === dir) return REDUCE_ONLY_REFUSAL;
      qty = Math.min(qty, Math.abs(pos));
    }
    let fillPrice = price;
    if (liquidity === 'taker' && type !== 'limit' && (cfg.slippageBps > 0 || cfg.slippageImpact > 0)) {
      const volume = this.bars.volume[this.barIndex] as number;
      const impact = cfg.slippageImpact > 0 && volume > 0 ? (cfg.slippageImpact * qty) / volume : 0;
      fillPrice = this.priceRounder.round(
        price * (1 + dir * (cfg.slippageBps / 10_000 + impact)),
        dir > 0 ? 'up' : 'down',
      );
    }
    const increase = pos === 0 || Math.sign(pos) === dir ? qty : Math.max(0, qty - Math.abs(pos));
    if (increase > 0) {
      const sizeAfter = pos === 0 || Math.sign(pos) === dir ? Math.abs(pos) + qty : increase;
      if (sizeAfter * fillPrice > this.maxNotional) {
        return 'position would exceed the maximum notional at this leverage (-2027)';
      }
      const rate = liquidity === 'maker' ? cfg.makerFee : cfg.takerFee;
      const required = (increase * fillPrice) / this.leverage + qty * fillPrice * rate;
      if (required > this.available(fillPrice, qty - increase) + 1e-9)
        return 'margin is insufficient (-2019)';
    }
    this.execQty = qty;
    this.execPrice = fillPrice;
    this.applyFill(orderId, tag, dir, liquidity);
    return '';
  }

  /**
   * Balance available for new margin once `closing` of the position has been closed at `price` (a reversal first
   * frees the margin and realizes the PnL of the part it closes)
   */
  private available(price: number, closing: number): number {
    const pos = this.positionQty;
    const size = Math.abs(pos);
    if (size === 0) return this.walletBalance;
    const realized = closing * (price - this.entryPrice) * Math.sign(pos);
    if (this.config.marginMode === 'isolated') {
      return this.walletBalance + realized - (this.isolatedWallet * (size - closing)) / size;
    }
    const upnl = this.walletBalance + pos * (price - this.entryPrice);
    // Closing all of it (a reversal) leaves no margin held: the same value without the division
    return closing === size ? upnl : upnl - ((size - closing) * price) / this.leverage;
  }

  /** Books the fill `execute` decided: `execQty` at `execPrice` */
  private applyFill(orderId: number, tag: string, dir: number, liquidity: 'maker' | 'taker'): void {
    const qty = this.execQty;
    const price = this.execPrice;
    const cfg = this.config;
    const isolated = cfg.marginMode === 'isolated';
    const fee = qty * price * (liquidity === 'maker' ? cfg.makerFee : cfg.takerFee);
    this.walletBalance -= fee;
    this.feesPaid += fee;
    const pos = this.positionQty;
    let realized = 0;
    if (pos === 0 || Math.sign(pos) === dir) {
      if (pos === 0) this.openTrade(dir);
      const size = Math.abs(pos) + qty;
      this.entryPrice = (Math.abs(pos) * this.entryPrice + qty * price) / size;
      this.positionQty = dir * this.qtyRounder.round(size);
      if (isolated) this.isolatedWallet += (qty * price) / this.leverage;
      this.tEntryValue += qty * price;
      this.tEntryQty += qty;
      this.tFees += fee;
      this.tMaxQty = Math.max(this.tMaxQty, size);
    } else {
      const size = Math.abs(pos);
      const closeQty = Math.min(qty, size);
      realized = closeQty * (price - this.entryPrice) * Math.sign(pos);
      this.walletBalance += realized;
      this.realizedPnl += realized;
      this.tRealized += realized;
      this.tExitValue += closeQty * price;
      this.tExitQty += closeQty;
      this.tFees += (fee * closeQty) / qty;
      // A full close (every reversal) leaves exactly 0: no rounding (a division) needed
      const left = closeQty === size ? 0 : this.qtyRounder.round(size - closeQty);
      if (isolated) this.isolatedWallet = left === 0 ? 0 : (this.isolatedWallet * left) / size;
      // Never -0: a flat short must compare and serialise as 0
      this.positionQty = left === 0 ? 0 : Math.sign(pos) * left;
      if (left === 0) {
        this.entryPrice = 0;
        this.closeTrade(false);
      }
      const flip = this.qtyRounder.round(qty - closeQty);
      if (flip > 0) {
        this.openTrade(dir);
        this.positionQty = dir * flip;
        this.entryPrice = price;
        if (isolated) this.isolatedWallet = (flip * price) / this.leverage;
        this.tEntryValue = flip * price;
        this.tEntryQty = flip;
        this.tMaxQty = flip;
        this.tFees = (fee * flip) / qty;
      }
    }
    this.updateLiquidation();
    this.unseenFills++;
    this.fillCount++;
    if (this.fillObjectsWanted()) this.recordFill(orderId, tag, dir, qty, price, fee, liquidity, realized);
  }

  private liquidate(price: number): void {
    const pos = this.positionQty;
    const qty = Math.abs(pos);
    const realized = qty * (price - this.entryPrice) * Math.sign(pos);
    this.walletBalance += realized;
    this.realizedPnl += realized;
    // Isolated: whatever margin is left goes to the insurance fund. Cross: the clearance fee, at most what is left
    const left = this.config.marginMode === 'isolated' ? this.isolatedWallet + realized : this.walletBalance;
    const fee =
      this.config.marginMode === 'isolated'
        ? Math.max(0, left)
        : Math.min(qty * price * this.config.liquidationFeeRate, Math.max(0, left));
    this.walletBalance -= fee;
    this.feesPaid += fee;
    this.liquidationFees += fee;
    this.liquidations++;
    this.changes++;
    this.tRealized += realized;
    this.tFees += fee;
    this.tExitValue += qty * price;
    this.tExitQty += qty;
    this.positionQty = 0;
    this.entryPrice = 0;
    this.isolatedWallet = 0;
    this.closeTrade(true);
    this.updateLiquidation();
    this.unseenFills++;
    this.fillCount++;
    if (this.fillObjectsWanted()) {
      this.recordFill(0, 'liquidation', -Math.sign(pos), qty, price, fee, 'liquidation', realized);
    }
    // The exchange cancels the symbol's open orders before it liquidates
    while (this.openOrders.length > 0) this.close(this.openOrders, 0, 'canceled', 'canceled by liquidation');
  }

  private updateLiquidation(): void {
    this.liquidationPrice =
      this.positionQty === 0
        ? Number.NaN
        : liquidationPriceOneWay(
            this.positionQty,
            this.entryPrice,
            this.config.marginMode === 'isolated' ? this.isolatedWallet : this.walletBalance,
            0,
            0,
            this.config.brackets,
          );
    this.dirty = true;
  }

  /** Fill objects are built for the history or for a strategy that reads them (checked before calling recordFill) */
  private fillObjectsWanted(): boolean {
    return this.buildFills || this.retainHistory;
  }

  private recordFill(
    orderId: number,
    tag: string,
    dir: number,
    quantity: number,
    price: number,
    fee: number,
    liquidity: Fill['liquidity'],
    realizedPnl: number,
  ): void {
    const fill: Fill = Object.freeze({
      orderId,
      tag,
      time: this.time,
      barIndex: this.barIndex,
      side: dir > 0 ? 'buy' : 'sell',
      quantity,
      price,
      fee,
      liquidity,
      realizedPnl,
      positionAfter: this.positionQty,
    });
    if (this.retainHistory) this.fills.push(fill);
    this.newFills.push(fill);
  }

  private openTrade(dir: number): void {
    this.tSide = dir;
    this.tEntryBar = this.barIndex;
    this.tEntryValue = 0;
    this.tEntryQty = 0;
    this.tExitValue = 0;
    this.tExitQty = 0;
    this.tMaxQty = 0;
    this.tRealized = 0;
    this.tFees = 0;
    this.tFunding = 0;
  }

  private closeTrade(liquidated: boolean): void {
    const net = this.tRealized - this.tFees - this.tFunding;
    this.tradeCount++;
    if (net > 0) {
      this.winningTrades++;
      this.grossProfit += net;
    } else this.grossLoss -= net;
    const side = this.tSide;
    this.tSide = 0;
    if (!this.retainHistory) return;
    this.trades.push(
      Object.freeze({
        side: side > 0 ? 'long' : 'short',
        entryTime: this.bars.openTime[this.tEntryBar] as number,
        exitTime: this.time,
        entryPrice: this.tEntryValue / this.tEntryQty,
        exitPrice: this.tExitValue / this.tExitQty,
        maxQuantity: this.tMaxQty,
        realizedPnl: this.tRealized,
        fees: this.tFees,
        funding: this.tFunding,
        netPnl: net,
        liquidated,
      }),
    );
  }

  /** Closes `order` and removes it from `list` where it sits at `at` (−1: in no list, a market order firing) */
  private close(
    list: Order[],
    at: number,
    status: Order['status'],
    reason: string,
    order = list[at] as Order,
  ): void {
    if (at >= 0) {
      // Shift down by hand: splice would allocate the array of removed orders on every fill
      for (let k = at + 1; k < list.length; k++) list[k - 1] = list[k] as Order;
      list.pop();
    }
    order.status = status;
    order.reason = reason;
    order.closedAt = this.time;
    this.changes++;
    if (this.retainHistory) this.closedOrders.push(order);
  }
}
