import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { decimal, incomeFields, ms } from '../common/fields';
import { EquityQuerySchema } from './dashboard';

/** A ratio or fraction, 4 decimals ("0.1250" = 12.5 %) */
const ratio = z.string().regex(/^-?\d+\.\d{4}$/, 'must be a decimal number with 4 decimals');

/** GET /api/v1/dashboard/analytics?from&to: the same range as the equity read (default: the 30 days up to now) */
export const AnalyticsQuerySchema = EquityQuerySchema;
export type AnalyticsQuery = z.infer<typeof AnalyticsQuerySchema>;

/** Income types that move money in or out of the futures wallet: not profit or loss, left out of every return */
export const TRANSFER_INCOME_TYPES = [
  'TRANSFER',
  'INTERNAL_TRANSFER',
  'CROSS_COLLATERAL_TRANSFER',
  'STRATEGY_UMFUTURES_TRANSFER',
  'COIN_SWAP_DEPOSIT',
  'COIN_SWAP_WITHDRAW',
  'AUTO_EXCHANGE',
] as const;

/**
 * One point of the equity curve (equity = margin balance: wallet + unrealized PnL), a bucket of recorded minutes:
 * its last snapshot, its lowest equity and its deepest drawdown, so a fall survives downsampling
 */
export const AnalyticsEquityPointSchema = z.object({
  /** The bucket's last recorded minute, ms since epoch */
  time: ms,
  equity: decimal,
  /** Lowest equity of the bucket */
  equityLow: decimal,
  /** Deepest fall of the bucket below the range's running peak, in USDT (0 or positive) */
  drawdown: decimal,
  /** The same fall as a fraction of that peak */
  drawdownRatio: ratio,
});
export type AnalyticsEquityPoint = z.infer<typeof AnalyticsEquityPointSchema>;

/** Income sums of a window; paid fees and funding are negative */
const incomeSums = {
  ...incomeFields,
  /** Other profit or loss Binance books (insurance clear, rebates, bonuses…); transfers are never in it */
  other: decimal,
  /** realizedPnl + commission + fundingFee + other */
  net: decimal,
};

/** One UTC day of the calendar */
export const AnalyticsDaySchema = z.object({
  /** 00:00 UTC of the day, ms since epoch */
  day: ms,
  ...incomeSums,
  /** Equity at the day's start (its first recorded snapshot, else the last one before it); null when none */
  startEquity: decimal.nullable(),
  /** net / startEquity, 4 decimals; null without a start equity */
  return: ratio.nullable(),
});
export type AnalyticsDay = z.infer<typeof AnalyticsDaySchema>;

/** Closing fills and what they made (from realized-PnL entries: a closing fill wins when its realized PnL > 0) */
const fills = {
  /** Realized-PnL entries other than zero (an opening fill books none, or zero) */
  closingFills: z.number().int().nonnegative(),
  wins: z.number().int().nonnegative(),
  /** wins / closingFills; null without closing fills */
  winRate: ratio.nullable(),
};

/** One symbol's results in the range */
export const AnalyticsSymbolSchema = z.object({ symbol: z.string(), ...incomeSums, ...fills });
export type AnalyticsSymbol = z.infer<typeof AnalyticsSymbolSchema>;

/**
 * One bot's results in the range, from the fills its log recorded (paper: the paper broker's; live: the order
 * manager's). A closing fill wins when its realized PnL is above zero, as for the account
 */
export const AnalyticsBotSchema = z.object({
  botId: z.uuid(),
  name: z.string(),
  symbol: z.string(),
  mode: z.enum(['paper', 'live']),
  /** Every fill in the range, opening ones included */
  fills: z.number().int().nonnegative(),
  realizedPnl: decimal,
  /** Fees the fills paid, negative (live bots' fills carry no fee yet: 0) */
  commission: decimal,
  /** realizedPnl + commission */
  net: decimal,
  ...fills,
});
export type AnalyticsBot = z.infer<typeof AnalyticsBotSchema>;

/**
 * GET /api/v1/dashboard/analytics: the account's results over a range, computed from what the account recorder
 * stored (equity snapshots each minute, Binance's income history); no exchange call. Money in USDT as decimal
 * strings, ratios as 4-decimal strings
 */
export const AnalyticsSchema = z.object({
  /** The range the figures cover: `from` is moved up to the first recorded snapshot or income entry */
  from: ms,
  to: ms,
  /** Width of an equity bucket in ms (60000 when every recorded minute is returned) */
  bucketMs: z.number().int().positive(),
  /** Oldest first, at most 1000 points */
  equity: z.array(AnalyticsEquityPointSchema),
  /** Deepest peak-to-trough fall of equity in the range, over every recorded minute; null without snapshots */
  maxDrawdown: z
    .object({
      /** In USDT */
      amount: decimal,
      /** As a fraction of the peak (the same definition as a backtest's max drawdown) */
      ratio,
    })
    .nullable(),
  /** UTC days with income or a snapshot, oldest first */
  daily: z.array(AnalyticsDaySchema),
  /** Symbols with income in the range, the largest net result first */
  symbols: z.array(AnalyticsSymbolSchema),
  /** Bots with a fill in the range, the largest net result first */
  bots: z.array(AnalyticsBotSchema),
  totals: z.object({
    ...incomeSums,
    ...fills,
    /** Money moved in (positive) or out (negative); not a result, not in any return */
    transfers: decimal,
    /** Sum of the winning closing fills' realized PnL */
    grossProfit: decimal,
    /** Sum of the losing closing fills' realized PnL, as a positive amount */
    grossLoss: decimal,
    /** grossProfit / grossLoss; null without a losing fill */
    profitFactor: ratio.nullable(),
  }),
  ratios: z
    .object({
      /**
       * Mean / standard deviation (n − 1) of the daily returns, × √365 (crypto trades every day), risk-free rate 0.
       * A daily return is the day's net result / its start-of-day equity, so transfers never count. Null with fewer
       * than 2 days
       */
      sharpe: ratio.nullable(),
      /** Mean daily return / downside deviation (√ of the mean of squared negative returns), × √365; null as above */
      sortino: ratio.nullable(),
      /** Days the returns were taken over: every UTC day from the first with a start equity to the range's end */
      days: z.number().int().nonnegative(),
    })
    .describe(
      'Sharpe and Sortino from daily returns (net result of the UTC day / start-of-day equity, transfers left out), ' +
        'annualised with 365 days, risk-free rate 0; null with fewer than 2 days',
    ),
  /** Every income entry up to this time has been imported (null: the first import has not finished) */
  syncedTo: ms.nullable(),
});
export type Analytics = z.infer<typeof AnalyticsSchema>;

export const AnalyticsResponseSchema = okResponse(AnalyticsSchema);
