import type { BarSeries } from '../bars/bars';
import type { OrderPort } from '../broker/order-port';
import { EngineInputError } from '../errors';
import type { StrategyContext } from './strategy';

/** The context handed to strategies: reads bars by age and refuses anything newer than the current bar */
export class BarContext implements StrategyContext {
  index = -1;
  price = Number.NaN;
  /** The band `watchPrice` set (none: −Infinity / Infinity) */
  watchLow = Number.NEGATIVE_INFINITY;
  watchHigh = Number.POSITIVE_INFINITY;
  /** Told of every new band (the simulated broker keeps it among its triggers) */
  onWatch: ((low: number, high: number) => void) | undefined = undefined;

  constructor(
    private readonly series: BarSeries,
    readonly broker: OrderPort,
  ) {}

  get time(): number {
    if (this.index < 0) this.outOfRange(0);
    return this.series.openTime[this.index] as number;
  }

  get intervalMs(): number {
    return this.series.intervalMs;
  }

  watchPrice(low: number, high: number): void {
    if (Number.isNaN(low) || Number.isNaN(high) || low >= high)
      throw new EngineInputError(`watchPrice needs low < high, got ${low} and ${high}`);
    this.watchLow = low;
    this.watchHigh = high;
    this.onWatch?.(low, high);
  }

  /** True when `price` is outside the band (it wakes the strategy) */
  wakesAt(price: number): boolean {
    return price <= this.watchLow || price >= this.watchHigh;
  }

  clearWatch(): void {
    this.watchLow = Number.NEGATIVE_INFINITY;
    this.watchHigh = Number.POSITIVE_INFINITY;
  }

  open(ago = 0): number {
    const i = this.index - ago;
    if (ago < 0 || i < 0) this.outOfRange(ago);
    return this.series.open[i] as number;
  }

  high(ago = 0): number {
    const i = this.index - ago;
    if (ago < 0 || i < 0) this.outOfRange(ago);
    return this.series.high[i] as number;
  }

  low(ago = 0): number {
    const i = this.index - ago;
    if (ago < 0 || i < 0) this.outOfRange(ago);
    return this.series.low[i] as number;
  }

  close(ago = 0): number {
    const i = this.index - ago;
    if (ago < 0 || i < 0) this.outOfRange(ago);
    return this.series.close[i] as number;
  }

  volume(ago = 0): number {
    const i = this.index - ago;
    if (ago < 0 || i < 0) this.outOfRange(ago);
    return this.series.volume[i] as number;
  }

  // Kept out of the accessors so they stay small enough to inline
  private outOfRange(ago: number): never {
    throw new EngineInputError(
      ago < 0
        ? `lookahead: a strategy asked for the bar ${-ago} after the current one`
        : `no bar ${ago} bars ago yet`,
    );
  }
}
