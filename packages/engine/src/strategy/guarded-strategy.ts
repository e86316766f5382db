import type { BarSeries } from '../bars/bars';
import type { Fill } from '../broker/orders';
import { StrategyError } from '../errors';
import {
  type BacktestFastPath,
  type FusedRun,
  hasBacktestFastPath,
  type PrepareCache,
  type Strategy,
  type StrategyContext,
  type TradeSignal,
} from './strategy';

/** The hooks of a strategy without a fast path: every one absent, so each method below takes its default */
const NO_FAST_PATH: BacktestFastPath = Object.freeze({});

/**
 * Calls a strategy's hooks so that any throw becomes a StrategyError naming the strategy, hook and bar.
 * Fills are frozen objects and bars are read through the context, so hooks cannot corrupt the run's inputs.
 * The backtest speed hooks (`BacktestFastPath`) default to the generic loop's behaviour when the strategy has none.
 */
export class GuardedStrategy {
  private readonly fast: BacktestFastPath;

  constructor(
    readonly id: string,
    private readonly inner: Strategy,
  ) {
    this.fast = hasBacktestFastPath(inner) ? inner : NO_FAST_PATH;
  }

  onBar(ctx: StrategyContext): void {
    try {
      this.inner.onBar(ctx);
    } catch (error) {
      throw new StrategyError(this.id, ctx.index, 'onBar', error);
    }
  }

  prepare(bars: BarSeries, cache: PrepareCache): void {
    if (this.fast.prepare === undefined) return;
    try {
      this.fast.prepare(bars, cache);
    } catch (error) {
      throw new StrategyError(this.id, -1, 'prepare', error);
    }
  }

  idleUntil(index: number): number {
    if (this.fast.idleUntil === undefined) return index + 1;
    try {
      const next = this.fast.idleUntil(index);
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
    if (this.fast.needsFills === undefined) return true;
    try {
      return this.fast.needsFills() !== false;
    } catch (error) {
      throw new StrategyError(this.id, -1, 'needsFills', error);
    }
  }

  /** Runs the strategy's own fused backtest loop if it has one for this configuration */
  runFused(run: FusedRun): boolean {
    if (this.fast.runFused === undefined) return false;
    try {
      return this.fast.runFused(run) === true;
    } catch (error) {
      if (error instanceof StrategyError) throw error;
      throw new StrategyError(this.id, -1, 'runFused', error);
    }
  }

  /** Whether the strategy watches prices at all (no onPrice: a band it sets never wakes anything) */
  watchesPrices(): boolean {
    return this.inner.onPrice !== undefined;
  }

  onPrice(ctx: StrategyContext): void {
    if (this.inner.onPrice === undefined) return;
    try {
      this.inner.onPrice(ctx);
    } catch (error) {
      throw new StrategyError(this.id, ctx.index, 'onPrice', error);
    }
  }

  /** Whether the strategy reads outside signals at all (no onSignal: nothing to hand one to) */
  readsSignals(): boolean {
    return this.inner.onSignal !== undefined;
  }

  onSignal(signal: TradeSignal, ctx: StrategyContext): void {
    if (this.inner.onSignal === undefined) return;
    try {
      this.inner.onSignal(signal, ctx);
    } catch (error) {
      throw new StrategyError(this.id, ctx.index, 'onSignal', error);
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
