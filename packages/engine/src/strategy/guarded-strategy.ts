import type { Fill } from '../broker/orders';
import { StrategyError } from '../errors';
import type { Strategy, StrategyContext } from './strategy';

/**
 * Calls a strategy's hooks so that any throw becomes a StrategyError naming the strategy, hook and bar.
 * Fills are frozen objects and bars are read through the context, so hooks cannot corrupt the run's inputs.
 */
export class GuardedStrategy {
  constructor(
    readonly id: string,
    private readonly inner: Strategy,
  ) {}

  onBar(ctx: StrategyContext): void {
    try {
      this.inner.onBar(ctx);
    } catch (error) {
      throw new StrategyError(this.id, ctx.index, 'onBar', error);
    }
  }

  onFill(fill: Fill, ctx: StrategyContext): void {
    if (this.inner.onFill === undefined) return;
    try {
      this.inner.onFill(fill, ctx);
    } catch (error) {
      throw new StrategyError(this.id, ctx.index, 'onFill', error);
    }
  }
}
