import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { countParam } from '../common/fields';
import { CreateOrderRequestSchema, FuturesOrderSchema, OrderKindSchema } from '../futures/futures';
import { SymbolSchema } from '../market/market';

/**
 * An order intent's life (server `trading/orders`): written before it is sent, under the client order id it
 * carries to the exchange.
 * - `pending`: recorded, not sent yet (the risk check runs here)
 * - `sending`: on its way; the exchange may have it
 * - `unknown`: sent, but the answer was lost: the server asks the exchange by client order id until it knows.
 *   The page shows it as "status unknown"; it is never sent again
 * - `placed`: the exchange has it (`order` holds its last known state)
 * - `rejected`: refused by the exchange or by the account's risk limits (`reason` in words); nothing changed
 * - `not_placed`: proved absent (never sent, or the exchange had no such order once its answer window passed)
 */
export const ORDER_INTENT_STATES = [
  'pending',
  'sending',
  'unknown',
  'placed',
  'rejected',
  'not_placed',
] as const;
export const OrderIntentStateSchema = z.enum(ORDER_INTENT_STATES);
export type OrderIntentState = z.infer<typeof OrderIntentStateSchema>;

/** Who asked for the order */
export const ORDER_INTENT_SOURCES = ['manual', 'bot', 'kill_switch'] as const;
export const OrderIntentSourceSchema = z.enum(ORDER_INTENT_SOURCES);
export type OrderIntentSource = z.infer<typeof OrderIntentSourceSchema>;

const ms = z.number().int().describe('ms since epoch');

export const OrderIntentSchema = z.object({
  id: z.string(),
  clientOrderId: z.string().describe('The client order id sent to the exchange (the idempotency key)'),
  source: OrderIntentSourceSchema,
  botId: z.string().nullable(),
  symbol: z.string(),
  kind: OrderKindSchema,
  request: CreateOrderRequestSchema.describe('The order as asked'),
  state: OrderIntentStateSchema,
  /** The exchange's order as last read (placed intents) */
  order: FuturesOrderSchema.nullable(),
  /** Why it was rejected or not placed, in words */
  reason: z.string().nullable(),
  /** Lookups made to resolve an unknown outcome */
  attempts: z.number().int(),
  createdAt: ms,
  updatedAt: ms,
});
export type OrderIntent = z.infer<typeof OrderIntentSchema>;

/** GET /api/v1/orders/intents: `unresolved` (default) lists pending, sending and unknown ones; `all` the latest */
export const OrderIntentsQuerySchema = z.object({
  filter: z.enum(['unresolved', 'all'], { error: 'filter must be unresolved or all' }).default('unresolved'),
  limit: countParam('limit', { max: 500, default: 100 }),
});
export const OrderIntentsResponseSchema = okResponse(z.array(OrderIntentSchema));

/**
 * What the order manager did or found on its own: an unknown order resolved (`resolved`), an open order or a
 * position on the account that no Kestrel order owns (`foreign_order`, `foreign_position`: reported, left alone),
 * an order whose state changed on the exchange (`synced`), the dead-man switch (`deadman`)
 */
export const OrderEventSchema = z.object({
  id: z.string(),
  kind: z.string(),
  message: z.string(),
  intentId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  createdAt: ms,
});
export type OrderEvent = z.infer<typeof OrderEventSchema>;
export const OrderEventsQuerySchema = z.object({
  limit: countParam('limit', { max: 500, default: 100 }),
});
export const OrderEventsResponseSchema = okResponse(z.array(OrderEventSchema));

/** POST /api/v1/orders/reconcile: one symbol, or every symbol with open orders or positions */
export const ReconcileRequestSchema = z.object({
  symbol: SymbolSchema.optional(),
});
export const ReconcileReportSchema = z.object({
  /** Unknown intents resolved by this pass */
  resolved: z.number().int(),
  /** Intents still unknown (the exchange could not be asked, or its answer window has not passed) */
  unresolved: z.number().int(),
  /** Placed intents whose exchange state was updated */
  synced: z.number().int(),
  foreignOrders: z.array(z.object({ symbol: z.string(), orderId: z.string(), clientOrderId: z.string() })),
  foreignPositions: z.array(z.object({ symbol: z.string(), positionSide: z.string(), amount: z.string() })),
});
export type ReconcileReport = z.infer<typeof ReconcileReportSchema>;
export const ReconcileResponseSchema = okResponse(ReconcileReportSchema);
