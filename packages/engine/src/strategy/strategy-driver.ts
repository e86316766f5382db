import type { BarSeries } from '../bars/bars';
import type { OrderPort } from '../broker/order-port';
import type { Fill } from '../broker/orders';
import type { SimBroker } from '../broker/sim-broker';
import { EngineInputError } from '../errors';
import { BarContext } from './bar-context';
import { GuardedStrategy } from './guarded-strategy';
import type { StrategyType } from './registry';
import type { TradeSignal } from './strategy';

/**
 * Drives one strategy against any OrderPort: the simulated broker in backtests and paper sessions, the server's
 * live port over the exchange for live bots. A fill is handed over the moment it is known (`onFill`: the
 * simulated broker calls it at the fill's point of the bar's path, a live bot when the exchange reports it), so a
 * counter-order or an exit is placed at once; a closed bar is handed over when it closes (`onBarClosed`, with any
 * fills its owner still holds back); an outside signal when it arrives (`onSignal`, live bots only).
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

  /**
   * An outside signal (a webhook's alert) for a live bot: handed over with `price`, the market's last price, and
   * `lastClosed` as for a fill. False, and nothing called, when the strategy reads no signals. A malformed signal
   * throws EngineInputError before the strategy sees it: the bad input is the sender's, not the strategy's
   */
  onSignal(signal: TradeSignal, price: number, lastClosed: number): boolean {
    if (!this.strategy.readsSignals()) return false;
    checkSignal(signal, price);
    const ctx = this.ctx;
    ctx.index = lastClosed;
    ctx.price = price;
    this.strategy.onSignal(signal, ctx);
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

/** Throws naming the field unless `signal` is one a strategy can act on (a live bot's webhook body is outside input) */
function checkSignal(signal: TradeSignal, price: number): void {
  const { action, quantity, price: limit } = signal;
  if (action !== 'buy' && action !== 'sell' && action !== 'close')
    throw new EngineInputError(`signal action must be buy, sell or close, got ${String(action)}`);
  if (quantity !== undefined && !(Number.isFinite(quantity) && quantity > 0))
    throw new EngineInputError(`signal quantity must be a positive number, got ${quantity}`);
  if (limit !== undefined && !(Number.isFinite(limit) && limit > 0))
    throw new EngineInputError(`signal price must be a positive number, got ${limit}`);
  if (!(Number.isFinite(price) && price > 0))
    throw new EngineInputError(`the last price for a signal must be a positive number, got ${price}`);
}
