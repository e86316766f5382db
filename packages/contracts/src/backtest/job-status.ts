import { z } from 'zod';

/**
 * A job's status and the optimisation's progress notice, apart from the rest of the backtest contracts: the live
 * socket's schemas (`socket/live-events.ts`, in the main entry point every page loads) read them, and the rest of
 * `@kestrel/contracts/backtest` belongs to the backtesting pages alone
 */
export const BACKTEST_STATUSES = ['queued', 'running', 'completed', 'failed', 'canceled'] as const;
export const BacktestStatusSchema = z.enum(BACKTEST_STATUSES);
export type BacktestStatus = z.infer<typeof BacktestStatusSchema>;

/** Pushed while an optimisation runs (progress at most every 250 ms) and on every status change */
export const OptimisationNoticeSchema = z.looseObject({
  optimisationId: z.string(),
  status: BacktestStatusSchema,
  progress: z.number().min(0).max(1),
  time: z.number(),
  error: z.string().optional(),
});
export type OptimisationNotice = z.infer<typeof OptimisationNoticeSchema>;
