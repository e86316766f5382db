import type { BarSeries } from '../bars/bars';
import type { OrderPort } from '../broker/order-port';
import { EngineInputError } from '../errors';
import type { StrategyContext } from './strategy';

/** The context handed to strategies: reads bars by age and refuses anything newer than the current bar */
export class BarContext implements StrategyContext {
  index = -1;

  constructor(
    private readonly series: BarSeries,
    readonly broker: OrderPort,
  ) {}

  get time(): number {
    return this.series.openTime[this.at(0)] as number;
  }

  get intervalMs(): number {
    return this.series.intervalMs;
  }

  open(ago = 0): number {
    return this.series.open[this.at(ago)] as number;
  }

  high(ago = 0): number {
    return this.series.high[this.at(ago)] as number;
  }

  low(ago = 0): number {
    return this.series.low[this.at(ago)] as number;
  }

  close(ago = 0): number {
    return this.series.close[this.at(ago)] as number;
  }

  volume(ago = 0): number {
    return this.series.volume[this.at(ago)] as number;
  }

  private at(ago: number): number {
    const i = this.index - ago;
    if (ago < 0 || i < 0) {
      throw new EngineInputError(
        ago < 0
          ? `lookahead: a strategy asked for the bar ${-ago} after the current one`
          : `no bar ${ago} bars ago yet`,
      );
    }
    return i;
  }
}
