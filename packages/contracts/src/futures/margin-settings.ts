import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { SymbolSchema } from '../market/market';
import { PositionSideSchema, positiveDecimal } from './futures';

export const MarginTypeSchema = z.enum(['cross', 'isolated'], {
  error: 'marginType must be cross or isolated',
});
export type MarginType = z.infer<typeof MarginTypeSchema>;

/**
 * POST /api/futures/margin-type: cross margin puts the whole balance behind the symbol's positions, isolated only
 * the margin given to each. Binance changes it only while the symbol has no open order and no position
 */
export const SetMarginTypeRequestSchema = z.object({ symbol: SymbolSchema, marginType: MarginTypeSchema });
export type SetMarginTypeRequest = z.infer<typeof SetMarginTypeRequestSchema>;
export const MarginTypeResponseSchema = okResponse(
  z.object({ symbol: z.string(), marginType: MarginTypeSchema }),
);

/**
 * POST /api/futures/positions/margin: margin into (`add`) or out of (`remove`) an isolated position, in USDT. More
 * margin moves the liquidation price away; Binance refuses taking out what the position's initial margin needs
 */
export const PositionMarginRequestSchema = z.object({
  symbol: SymbolSchema,
  positionSide: PositionSideSchema.default('BOTH'),
  action: z.enum(['add', 'remove'], { error: 'action must be add or remove' }),
  amount: positiveDecimal.describe('USDT'),
});
export type PositionMarginRequest = z.infer<typeof PositionMarginRequestSchema>;
export const PositionMarginResponseSchema = okResponse(PositionMarginRequestSchema);
