import type { BarSeries } from '../bars/bars';
import type { OrderPort } from '../broker/order-port';
import type { Fill } from '../broker/orders';
import { BarContext } from './bar-context';
import { GuardedStrategy } from './guarded-strategy';
import type { StrategyType } from './registry';

/**
 * Drives one strategy against any OrderPort: the simulated broker in backtests and paper sessions; the server's bot
 * runtime (not built yet) is to drive it with a port over the exchange adapter. Per closed bar: hand over that
 * bar's fills, then the bar.
 */
export class StrategyDriver {
  readonly ctx: BarContext;
  readonly strategy: GuardedStrategy;

  constructor(type: StrategyType, params: unknown, series: BarSeries, port: OrderPort) {
    this.ctx = new BarContext(series, port);
    this.strategy = new GuardedStrategy(type.id, type.create(params));
  }

  /** Bar i has closed: `fills` are the executions reported since the previous bar (emptied here) */
  onBarClosed(i: number, fills: Fill[]): void {
    const ctx = this.ctx;
    ctx.index = i;
    if (fills.length > 0) {
      // Orders sent from onFill go in flight, so no fill can be added while we iterate
      for (let k = 0; k < fills.length; k++) this.strategy.onFill(fills[k] as Fill, ctx);
      // pop() is inlined; assigning length = 0 goes through a slow builtin
      while (fills.length > 0) fills.pop();
    }
    this.strategy.onBar(ctx);
  }
}
