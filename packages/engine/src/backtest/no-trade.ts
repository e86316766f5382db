import type { BarSeries } from '../bars/bars';
import type { BacktestResult } from './runner';

/** A price in a sentence: six significant digits, no float noise */
const priceWords = (price: number) => String(Number(price.toPrecision(6)));

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Why a run closed no trade, in words a trader can act on (null when it closed one): a position still open at the
 * end, orders the exchange's rules rejected, orders the price never reached, or no order at all. A run kept without
 * details (optimisation variants) has no order list: it can still tell fills and rejections apart from no order.
 */
export function whyNoTrade(
  result: Pick<BacktestResult, 'metrics' | 'fillCount' | 'orders' | 'rejectedOrders' | 'firstRejection'>,
  bars: Pick<BarSeries, 'length' | 'low' | 'high'>,
): string | null {
  if (result.metrics.tradeCount > 0) return null;
  if (result.fillCount > 0) {
    return `No trade closed: ${plural(result.fillCount, 'fill')} opened a position still open at the end (its result is in the return, at the last close).`;
  }
  if (result.rejectedOrders > 0) {
    return `The exchange's rules rejected ${plural(result.rejectedOrders, 'order')} and none filled: ${result.firstRejection}.`;
  }
  // Trailing stops move with the price: only orders at a fixed price say how far the market stayed from them
  const resting = result.orders.filter(
    (o) => o.type === 'limit' || o.type === 'stop-market' || o.type === 'take-profit-market',
  );
  if (resting.length > 0 && bars.length > 0) {
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < bars.length; i++) {
      low = Math.min(low, bars.low[i] as number);
      high = Math.max(high, bars.high[i] as number);
    }
    // How far the price stayed from each order: a buy limit or take-profit waits below the lows, a buy stop above
    // the highs (and the other way round for sells)
    const gap = (o: (typeof resting)[number]) => {
      const at = o.type === 'limit' ? o.price : o.triggerPrice;
      const below = (o.side === 'buy') !== (o.type === 'stop-market');
      return below ? (low - at) / low : (at - high) / high;
    };
    const nearest = resting.reduce((a, b) => (gap(b) < gap(a) ? b : a));
    const at = nearest.type === 'limit' ? nearest.price : nearest.triggerPrice;
    return `${plural(resting.length, 'order')} waited and none filled: the price moved between ${priceWords(low)} and ${priceWords(high)}, and the nearest (${nearest.side} at ${priceWords(at)}) stayed ${(Math.max(0, gap(nearest)) * 100).toFixed(2)} % away.`;
  }
  return `The strategy placed no order in these ${plural(bars.length, 'bar')}: its entry condition never held. A longer period or other parameters may trade.`;
}
