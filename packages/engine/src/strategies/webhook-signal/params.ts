import { z } from 'zod';
import { entryParams } from '../shared/entry-params';

/**
 * Trades outside signals (buy, sell, close); `side` is which positions it may take: a buy on a short-only strategy
 * only closes the short, a sell on a long-only one only closes the long
 */
export const WebhookSignalParamsSchema = z.object({
  side: z.enum(['long', 'short', 'both']).default('both'),
  /** `positionFraction`: the share of equity put up as margin for an entry whose signal names no quantity */
  ...entryParams,
});

export type WebhookSignalParams = z.output<typeof WebhookSignalParamsSchema>;
