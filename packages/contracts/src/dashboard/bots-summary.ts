import { z } from 'zod';
import { BotModeSchema, BotStateSchema } from '../bots/bots';
import { okResponse } from '../common/error-response';
import { TradingEnvironmentSchema } from '../environment/environment';

// The dashboard's bots card reads only this: it lives with the dashboard's reads (the main entry point), so
// /dashboard does not load the whole bots entry for it; `@kestrel/contracts/bots` re-exports it

/** One bot's line in the dashboard summary: what it is and how it is doing, USDT */
export const BotPnlLineSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  symbol: z.string(),
  mode: BotModeSchema,
  state: BotStateSchema,
  /** Where it trades (the environment it was created in), whatever its owner is on now */
  environment: TradingEnvironmentSchema,
  /** Closed trades since the bot first started, after fees and funding */
  realizedPnl: z.number(),
  unrealizedPnl: z.number(),
  /** Realized since 00:00 UTC + unrealized now */
  todayPnl: z.number(),
});
export type BotPnlLine = z.infer<typeof BotPnlLineSchema>;

/** GET /api/v1/dashboard/bots */
export const BotsSummarySchema = z.object({
  total: z.number().int(),
  running: z.number().int(),
  byState: z.record(BotStateSchema, z.number().int()),
  paper: z.number().int(),
  live: z.number().int(),
  /** Bots per environment they trade in */
  byEnvironment: z.record(TradingEnvironmentSchema, z.number().int()),
  /** Over every bot of the user, USDT */
  realizedPnl: z.number(),
  unrealizedPnl: z.number(),
  todayPnl: z.number(),
  /** Every bot with its own PnL, running ones first, then by name */
  bots: z.array(BotPnlLineSchema),
});
export type BotsSummary = z.infer<typeof BotsSummarySchema>;

export const BotsSummaryResponseSchema = okResponse(BotsSummarySchema);
