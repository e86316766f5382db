import type { KlineInterval } from '@kestrel/contracts';
import type { BacktestRequestInput } from '@kestrel/contracts/backtest';

const DAY_MS = 86_400_000;

/** How far back the hub's figures and the create form's preview look */
export const RECENT_DAYS = 7;

/** The last `days` whole UTC days, ending at today's 00:00 UTC: the same range all day, so a run can be reused */
export function recentWindow(now: number, days = RECENT_DAYS): { startTime: number; endTime: number } {
  const endTime = Math.floor(now / DAY_MS) * DAY_MS;
  return { startTime: endTime - days * DAY_MS, endTime };
}

export interface QuickBacktest {
  strategy: string;
  params: Record<string, unknown>;
  symbol: string;
  interval: KlineInterval;
  /** Starting balance in USDT (a bot's budget); the backtest's default when left out */
  initialBalance?: number;
  leverage?: number;
}

/** A backtest of recent data with the exchange's regular fees: what the hub's templates and the form's preview run */
export function quickBacktestRequest(quick: QuickBacktest, now: number): BacktestRequestInput {
  return {
    strategy: quick.strategy,
    params: quick.params,
    symbol: quick.symbol,
    interval: quick.interval,
    ...recentWindow(now),
    costs: {
      ...(quick.initialBalance !== undefined ? { initialBalance: quick.initialBalance } : {}),
      ...(quick.leverage !== undefined ? { leverage: quick.leverage } : {}),
    },
  };
}
