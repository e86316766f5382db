import { z } from 'zod';

/** EMA crossover parameters: ranges bound what the form accepts and what the optimiser sweeps */
export const EmaCrossParamsSchema = z
  .object({
    fast: z.number().int().min(2).max(500).default(12).describe('Fast EMA period'),
    slow: z.number().int().min(3).max(2_000).default(26).describe('Slow EMA period'),
    side: z.enum(['long', 'short', 'both']).default('both').describe('Which crossings open positions'),
    /** Margin committed per entry as a fraction of equity */
    positionFraction: z
      .number()
      .min(0.01)
      .max(1)
      .default(0.5)
      .describe('Share of equity used as margin per entry')
      .meta({ unit: 'fraction' }),
    leverage: z.number().int().min(1).max(125).default(3),
    stopLossPct: z
      .number()
      .min(0)
      .max(0.5)
      .default(0)
      .describe('Stop-loss distance from entry (0 = none)')
      .meta({ unit: 'fraction' }),
    takeProfitPct: z
      .number()
      .min(0)
      .max(5)
      .default(0)
      .describe('Take-profit distance from entry (0 = none)')
      .meta({ unit: 'fraction' }),
  })
  .refine((p) => p.fast < p.slow, { message: 'fast must be below slow', path: ['fast'] });

export type EmaCrossParams = z.output<typeof EmaCrossParamsSchema>;
