import type { BarSeries, KlineRow } from '../bars/bars';
import type { Fill } from '../broker/orders';
import type { StrategyType } from '../strategy/registry';
import { LiveSession, type RunSettings } from './runner';

/**
 * Test support: runs a strategy live over `bars`, handing each bar to a LiveSession as the closed kline the exchange
 * would send, and returns the session, the fills it reported and the equity after each bar's close (to compare with
 * a backtest over the same bars)
 */
export function replayLive(
  type: StrategyType,
  params: unknown,
  bars: BarSeries,
  settings: RunSettings,
): { session: LiveSession; fills: Fill[]; equity: number[] } {
  const session = new LiveSession(type, params, bars.intervalMs, settings);
  const fills: Fill[] = [];
  const equity: number[] = [];
  for (let i = 0; i < bars.length; i++) {
    const row: KlineRow = [
      bars.openTime[i] as number,
      String(bars.open[i]),
      String(bars.high[i]),
      String(bars.low[i]),
      String(bars.close[i]),
      String(bars.volume[i]),
    ];
    fills.push(...session.onClosedKline(row).fills);
    equity.push(session.broker.equityAt(bars.close[i] as number));
  }
  return { session, fills, equity };
}
