import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { decimal, ms } from '../common/fields';
import { CreateOrderRequestSchema, positiveDecimal } from './futures';

/**
 * A take-profit and/or stop-loss attached to an entry: once the entry fills (at all), the server places each as a
 * close-position conditional order on the entry's closing side, fired by the mark price, as Binance's own ticket
 * does. Until then it waits on the server, not on the exchange (Binance's API has no attached orders)
 */
export const EntryProtectionSchema = z
  .object({
    takeProfit: positiveDecimal
      .optional()
      .describe(
        'Mark price at which the whole position is closed in profit (above a long entry, below a short)',
      ),
    stopLoss: positiveDecimal
      .optional()
      .describe(
        'Mark price at which the whole position is closed at a loss (below a long entry, above a short)',
      ),
  })
  .refine((p) => p.takeProfit !== undefined || p.stopLoss !== undefined, {
    message: 'protection needs a takeProfit, a stopLoss or both',
  });
export type EntryProtection = z.infer<typeof EntryProtectionSchema>;

/** POST /api/futures/orders/create: the order, and for a LIMIT or MARKET entry optionally its TP/SL */
export const PlaceOrderRequestSchema = CreateOrderRequestSchema.and(
  z.object({
    protection: EntryProtectionSchema.optional().describe(
      'LIMIT or MARKET entries only (not reduce-only): take-profit and stop-loss placed once the entry fills',
    ),
  }),
);
export type PlaceOrderRequest = z.infer<typeof PlaceOrderRequestSchema>;

/**
 * - `waiting`: the entry has not filled yet
 * - `placed`: the entry filled and the TP/SL orders were sent (they show among the open orders)
 * - `failed`: the entry filled but the exchange refused an order: the position is not protected (`detail` says why)
 * - `canceled`: the entry ended without a fill (or was never placed); nothing was placed
 */
export const ENTRY_PROTECTION_STATES = ['waiting', 'placed', 'failed', 'canceled'] as const;
export const EntryProtectionStateSchema = z.enum(ENTRY_PROTECTION_STATES);
export type EntryProtectionState = z.infer<typeof EntryProtectionStateSchema>;

export const EntryProtectionRecordSchema = z.object({
  id: z.string(),
  symbol: z.string(),
  /** The entry's client order id (as in the open orders and the order history) */
  entryClientOrderId: z.string(),
  takeProfit: decimal.nullable(),
  stopLoss: decimal.nullable(),
  state: EntryProtectionStateSchema,
  /** Why it failed or was canceled, in words */
  detail: z.string().nullable(),
  createdAt: ms,
  updatedAt: ms,
});
export type EntryProtectionRecord = z.infer<typeof EntryProtectionRecordSchema>;
/** GET /api/futures/orders/protections: the waiting ones and the latest others, newest first */
export const EntryProtectionsResponseSchema = okResponse(z.array(EntryProtectionRecordSchema));
