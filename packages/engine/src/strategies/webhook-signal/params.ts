import { z } from 'zod';

/**
 * Trades outside signals (buy, sell, close); `side` is which positions it may take: a buy on a short-only strategy
 * only closes the short, a sell on a long-only one only closes the long
 */
export const WebhookSignalParamsSchema = z.object({
  side: z.enum(['long', 'short', 'both']).default('both'),
  /** Share of equity put up as margin for an entry whose signal names no quantity */
  positionFraction: z.number().min(0.01).max(1).default(0.5).meta({ unit: 'fraction' }),
  leverage: z.number().int().min(1).max(125).default(3),
  stopLossPct: z.number().min(0).max(0.5).default(0).meta({ unit: 'fraction' }),
  takeProfitPct: z.number().min(0).max(5).default(0).meta({ unit: 'fraction' }),
});

export type WebhookSignalParams = z.output<typeof WebhookSignalParamsSchema>;
