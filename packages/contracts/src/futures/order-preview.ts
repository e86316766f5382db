import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { decimal } from '../common/fields';
import { MarginTypeSchema } from './margin-settings';

/**
 * POST /api/futures/orders/preview (body: the order as it would be placed): what it costs and where the position it
 * leaves would be liquidated, estimated by the server from the account, the symbol's leverage and margin mode and
 * its leverage brackets, before anything is sent. Nothing is placed or recorded
 */
export const OrderPreviewSchema = z.object({
  symbol: z.string(),
  /** What the estimate prices the order at: its limit price, or the last price for a market order */
  price: decimal,
  /** price × quantity (quote asset) */
  notional: decimal,
  /** The margin the order takes at the symbol's leverage: notional / leverage */
  initialMargin: decimal,
  marginType: MarginTypeSchema,
  leverage: z.number().int(),
  /** The position once the order has filled (signed: negative is short; "0": it closes it) */
  positionAfter: decimal,
  /**
   * Binance's formula for that position (one-way mode; cross: the wallet and the other positions' margin and PnL
   * as they stand, isolated: the position's margin). Null when flat, or when the position cannot be liquidated
   */
  liquidationPrice: decimal.nullable(),
  /** The margin available before the order */
  availableBalance: decimal,
  /** Whose maintenance-margin table was used: the exchange's for the symbol, or the engine's default */
  bracketsSource: z.enum(['exchange', 'default']),
});
export type OrderPreview = z.infer<typeof OrderPreviewSchema>;
export const OrderPreviewResponseSchema = okResponse(OrderPreviewSchema);
