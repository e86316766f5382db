import type { BarSeries } from '../bars/bars';
import type { Fill } from '../broker/orders';
import { StrategyError } from '../errors';
import type { FusedRun, PrepareCache, Strategy, StrategyContext } from './strategy';

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

  prepare(bars: BarSeries, cache: PrepareCache): void {
    if (this.inner.prepare === undefined) return;
    try {
      this.inner.prepare(bars, cache);
    } catch (error) {
      throw new StrategyError(this.id, -1, 'prepare', error);
    }
  }

  idleUntil(index: number): number {
    if (this.inner.idleUntil === undefined) return index + 1;
    try {
      const next = this.inner.idleUntil(index);
      // Output check: a hint that goes backwards or is not a number would stall or skip the run
      if (!(next > index))
        throw new Error(`idleUntil(${index}) returned ${next}, expected a later bar index`);
      return next;
    } catch (error) {
      throw new StrategyError(this.id, index, 'idleUntil', error);
    }
  }

  /** Whether onFill can do anything with a fill (no onFill at all: it cannot) */
  needsFills(): boolean {
    if (this.inner.onFill === undefined) return false;
    if (this.inner.needsFills === undefined) return true;
    try {
      return this.inner.needsFills() !== false;
    } catch (error) {
      throw new StrategyError(this.id, -1, 'needsFills', error);
    }
  }

  /** Runs the strategy's own fused backtest loop if it has one for this configuration */
  runFused(run: FusedRun): boolean {
    if (this.inner.runFused === undefined) return false;
    try {
      return this.inner.runFused(run) === true;
    } catch (error) {
      if (error instanceof StrategyError) throw error;
      throw new StrategyError(this.id, -1, 'runFused', error);
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
