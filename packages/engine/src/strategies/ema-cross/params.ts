import { z } from 'zod';
import { entryParams } from '../shared/entry-params';

/** EMA crossover parameters: ranges bound what the form accepts and what the optimiser sweeps */
export const EmaCrossParamsSchema = z
  .object({
    fast: z.number().int().min(2).max(500).default(12).describe('Fast EMA period'),
    slow: z.number().int().min(3).max(2_000).default(26).describe('Slow EMA period'),
    side: z.enum(['long', 'short', 'both']).default('both').describe('Which crossings open positions'),
    ...entryParams,
  })
  .refine((p) => p.fast < p.slow, { message: 'fast must be below slow', path: ['fast'] });

export type EmaCrossParams = z.output<typeof EmaCrossParamsSchema>;
