import type { BarSeries } from '../bars/bars';
import type { OrderPort } from '../broker/order-port';
import type { Fill } from '../broker/orders';
import type { SimBroker } from '../broker/sim-broker';
import { BarContext } from './bar-context';
import { GuardedStrategy } from './guarded-strategy';
import type { StrategyType } from './registry';

/**
 * Drives one strategy against any OrderPort: the simulated broker in backtests and paper sessions, the server's
 * live port over the exchange for live bots. A fill is handed over the moment it is known (`onFill`: the
 * simulated broker calls it at the fill's point of the bar's path, a live bot when the exchange reports it), so a
 * counter-order or an exit is placed at once; a closed bar is handed over when it closes (`onBarClosed`, with any
 * fills its owner still holds back).
 */
export class StrategyDriver {
  readonly ctx: BarContext;
  readonly strategy: GuardedStrategy;

  constructor(
    type: StrategyType,
    params: unknown,
    private readonly series: BarSeries,
    port: OrderPort,
  ) {
    this.ctx = new BarContext(series, port);
    this.strategy = new GuardedStrategy(type.id, type.create(params));
  }

  /**
   * A fill, as it happens: `lastClosed` is the index of the newest closed bar (the bar in progress has not closed,
   * so the strategy cannot read it; −1 before the first)
   */
  onFill(fill: Fill, lastClosed: number): void {
    this.ctx.index = lastClosed;
    this.ctx.price = fill.price;
    this.strategy.onFill(fill, this.ctx);
  }

  /**
   * A price beyond the band the strategy watches (`watchPrice`) wakes it: the band is cleared first (the strategy
   * arms it again if it still wants prices). False, and nothing called, when the price is inside the band
   */
  onPrice(price: number, lastClosed: number): boolean {
    const ctx = this.ctx;
    if (!ctx.wakesAt(price)) return false;
    ctx.clearWatch();
    ctx.index = lastClosed;
    ctx.price = price;
    this.strategy.onPrice(ctx);
    return true;
  }

  /** The band the strategy watches, [−Infinity, Infinity] for none */
  get watchedBand(): { low: number; high: number } {
    return { low: this.ctx.watchLow, high: this.ctx.watchHigh };
  }

  /**
   * Fills go to the strategy as the broker books them, inside the bar (when the strategy reads fills at all: else
   * they would only cost their objects); so does a price beyond the band it watches, met on the bar's path
   */
  reactInsideBars(broker: SimBroker): void {
    if (this.strategy.needsFills()) broker.fillReaction = (fill) => this.onFill(fill, fill.barIndex - 1);
    if (this.strategy.watchesPrices()) {
      this.ctx.onWatch = (low, high) => broker.watchPrice(low, high);
      broker.priceReaction = (price, barIndex) => this.onPrice(price, barIndex - 1);
    }
  }

  /**
   * Bar i has closed: `fills` are the executions reported since the previous bar and not handed over yet (emptied
   * here); `price` the latest price known (the bar's close unless a newer one is: a bot's start)
   */
  onBarClosed(i: number, fills: Fill[], price = this.series.close[i] as number): void {
    const ctx = this.ctx;
    ctx.index = i;
    ctx.price = price;
    if (fills.length > 0) {
      // Orders sent from onFill go in flight, so no fill can be added while we iterate
      for (let k = 0; k < fills.length; k++) this.strategy.onFill(fills[k] as Fill, ctx);
      // pop() is inlined; assigning length = 0 goes through a slow builtin
      while (fills.length > 0) fills.pop();
    }
    this.strategy.onBar(ctx);
  }
}
