import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { ms } from '../common/fields';
import { KlineIntervalSchema } from '../market/market';
import { BotModeSchema } from './bots';

/** One round trip, flat to flat (or to a flip), of the bot or of the backtest; money in USDT */
export const DriftTradeSchema = z.object({
  side: z.enum(['long', 'short']),
  entryTime: ms,
  /** Null while the trade is still open at the end of the period */
  exitTime: ms.nullable(),
  /** Average entry price */
  entryPrice: z.number(),
  /** Average exit price; null while open */
  exitPrice: z.number().nullable(),
  /** Largest absolute size held */
  quantity: z.number(),
  /** Before fees and funding */
  realizedPnl: z.number(),
  /** Paid, positive */
  fees: z.number(),
  /** Paid while open (negative: received); null when it is not recorded (the bot's log has no funding) */
  funding: z.number().nullable(),
});
export type DriftTrade = z.infer<typeof DriftTradeSchema>;

/** A bot trade and the backtest trade it corresponds to (same side, entries closest in time) */
export const DriftMatchSchema = z.object({
  bot: DriftTradeSchema,
  backtest: DriftTradeSchema,
  /** bot − backtest, ms (positive: the bot entered later) */
  entryTimeDiffMs: z.number().int(),
  /** Null when either is still open */
  exitTimeDiffMs: z.number().int().nullable(),
  /** bot − backtest */
  entryPriceDiff: z.number(),
  exitPriceDiff: z.number().nullable(),
  /**
   * The bot's price against the backtest's in basis points, signed against the trader: positive = the bot paid
   * more on a long entry (or received less on its exit) than the simulation
   */
  entrySlippageBps: z.number(),
  exitSlippageBps: z.number().nullable(),
  /** bot − backtest: realized PnL, fees (paid) */
  realizedPnlDiff: z.number(),
  feesDiff: z.number(),
});
export type DriftMatch = z.infer<typeof DriftMatchSchema>;

const sideTotals = z.object({
  trades: z.number().int(),
  realizedPnl: z.number(),
  fees: z.number(),
  /** Null when not recorded (the bot's funding) */
  funding: z.number().nullable(),
  /** realizedPnl − fees − funding (funding counted as 0 when not recorded) */
  net: z.number(),
});

/**
 * GET /api/v1/agents/{id}/drift: the bot's fills over its last run against a backtest of the same strategy and
 * parameters, on the same symbol, interval and klines, with the backtester's default costs, the bot's budget and
 * leverage. Where live (or paper) differs from the simulation
 */
export const DriftReportSchema = z.object({
  botId: z.uuid(),
  mode: BotModeSchema,
  strategy: z.string(),
  symbol: z.string(),
  interval: KlineIntervalSchema,
  /** The bot's trading period: its last start (its first bar's open) to its stop, or now */
  period: z.object({ from: ms, to: ms }),
  backtest: z.object({
    /** Bars run, warm-up included (the strategy's warm-up bars before the period's start place no orders) */
    bars: z.number().int(),
    warmupFrom: ms,
    makerFeeRate: z.number(),
    takerFeeRate: z.number(),
    slippageBps: z.number(),
    /** Funding at the rates the exchange settled */
    funding: z.boolean(),
  }),
  /** How far apart two entries may be and still match: this many ms (3 bars) */
  matchWindowMs: z.number().int(),
  matched: z.array(DriftMatchSchema),
  /** Bot trades with no backtest trade of the same side within the window */
  botOnly: z.array(DriftTradeSchema),
  /** Backtest trades the bot did not make */
  backtestOnly: z.array(DriftTradeSchema),
  totals: z.object({
    bot: sideTotals,
    backtest: sideTotals,
    /** Mean over matched trades; null without any */
    meanEntrySlippageBps: z.number().nullable(),
    meanExitSlippageBps: z.number().nullable(),
    meanEntryDelayMs: z.number().nullable(),
  }),
  /** What the comparison cannot see, in words (e.g. live fills without fees) */
  notes: z.array(z.string()),
});
export type DriftReport = z.infer<typeof DriftReportSchema>;

export const DriftReportResponseSchema = okResponse(DriftReportSchema);
