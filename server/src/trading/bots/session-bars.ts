import type { KlineInterval } from '@kestrel/contracts';
import { barOpenTime } from '@kestrel/engine';

/**
 * Open time of the first bar a session started at `startedAt` trades: the last bar closed at the start. The strategy
 * acts on it at once (a grid lays its levels, a DCA bot sends its base order) instead of waiting for the next close,
 * which on a 1h bot is up to an hour away. Stored on the row at the start (`trades_from`)
 */
export function firstTradedBar(interval: KlineInterval, startedAt: number): number {
  return barOpenTime(interval, barOpenTime(interval, startedAt) - 1);
}

/**
 * The bars of a bot session: it trades from `tradeFrom` (the row's `trades_from`; a session started before bots
 * acted at once has none and traded from the bar opening at its start), and the `warmupBars − 1` bars before it
 * only warm the strategy (`warmupBars` counts the bar the strategy first acts on)
 */
export function sessionBars(
  interval: KlineInterval,
  session: { startedAt: number; tradesFrom: number | null },
  warmupBars: number,
): { tradeFrom: number; warmFrom: number } {
  const tradeFrom = session.tradesFrom ?? barOpenTime(interval, session.startedAt);
  let warmFrom = tradeFrom;
  for (let n = warmupBars - 1; n > 0; n--) warmFrom = barOpenTime(interval, warmFrom - 1);
  return { tradeFrom, warmFrom };
}
