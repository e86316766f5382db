import type { BotFill, BotOrder } from '@kestrel/contracts/bots';
import { type ChartTime, candleAt } from '../../backtesting/lib/chart-data';
import { restingPrice } from './order-ladder';

export interface FillMark {
  time: ChartTime;
  side: BotFill['side'];
}

/**
 * One mark per candle and side: the fills moved onto the candle that holds them (a grid's many fills in one bar
 * would otherwise pile up), in time order; fills outside the candles are dropped
 */
export function fillMarks(fills: readonly BotFill[], candleTimes: readonly ChartTime[]): FillMark[] {
  const seen = new Set<string>();
  const marks: FillMark[] = [];
  for (const fill of fills) {
    const at = candleAt(candleTimes, Math.floor(fill.time / 1000));
    if (at < 0) continue;
    const time = candleTimes[at] as number;
    const key = `${time}:${fill.side}`;
    if (seen.has(key)) continue;
    seen.add(key);
    marks.push({ time, side: fill.side });
  }
  return marks.sort((a, b) => a.time - b.time || a.side.localeCompare(b.side));
}

/** The prices the bot's resting orders wait at (a limit's price, a stop's trigger); market orders have none */
export function orderLines(orders: readonly BotOrder[]): { price: number; side: BotOrder['side'] }[] {
  const lines: { price: number; side: BotOrder['side'] }[] = [];
  for (const o of orders) {
    const price = restingPrice(o);
    if (price !== null && Number.isFinite(price) && price > 0) lines.push({ price, side: o.side });
  }
  return lines;
}
