import { z } from 'zod';
import { SymbolSchema } from '../market/market';

const decimal = z.string().regex(/^-?\d+(\.\d+)?$/, 'must be a decimal number');
const positiveDecimal = z
  .string({ error: 'must be a decimal string such as "0.01"' })
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "0.01"')
  .refine((s) => Number(s) > 0, 'must be greater than 0');

export const OrderSideSchema = z.enum(['BUY', 'SELL'], { error: 'side must be BUY or SELL' });
export const OrderTypeSchema = z.enum(['LIMIT', 'MARKET'], { error: 'type must be LIMIT or MARKET' });
export const TimeInForceSchema = z.enum(['GTC', 'IOC', 'FOK', 'GTX'], {
  error: 'timeInForce must be GTC, IOC, FOK or GTX',
});
export const PositionSideSchema = z.enum(['BOTH', 'LONG', 'SHORT'], {
  error: 'positionSide must be BOTH, LONG or SHORT',
});

/** POST /api/futures/orders/create (the spec leaves the body open) */
export const CreateOrderRequestSchema = z
  .object({
    symbol: SymbolSchema,
    side: OrderSideSchema,
    type: OrderTypeSchema,
    quantity: positiveDecimal,
    price: positiveDecimal.optional(),
    timeInForce: TimeInForceSchema.optional(),
    reduceOnly: z.boolean().optional(),
    positionSide: PositionSideSchema.optional(),
    /** The caller's own id (1-36 of A-Z a-z 0-9 . : / _ -): sending the same id twice cannot make two orders */
    clientOrderId: z
      .string()
      .regex(/^[.A-Za-z0-9:/_-]{1,36}$/, 'clientOrderId must be 1-36 characters of A-Z a-z 0-9 . : / _ -')
      .optional(),
  })
  .refine((o) => o.type !== 'LIMIT' || o.price !== undefined, {
    path: ['price'],
    error: 'price is required for a LIMIT order',
  })
  .refine((o) => o.type !== 'MARKET' || o.price === undefined, {
    path: ['price'],
    error: 'a MARKET order takes no price',
  });
export type CreateOrderRequest = z.infer<typeof CreateOrderRequestSchema>;

export const CancelOrderRequestSchema = z.object({ symbol: SymbolSchema });
export const OrderIdParamsSchema = z.object({
  id: z.string().regex(/^\d{1,20}$/, 'order id must be the exchange order id (digits)'),
});
export const OptionalSymbolQuerySchema = z.object({ symbol: SymbolSchema.optional() });
export const SymbolQuerySchema = z.object({
  symbol: z.string({ error: 'symbol is required, e.g. ?symbol=BTCUSDT' }).pipe(SymbolSchema),
});

/**
 * GET /api/futures/history/{orders,trades}: limit defaults to 100 (spec). The symbol is optional in the spec but
 * Binance keeps history per symbol, so a call without one is answered with a clear 400.
 */
export const HistoryQuerySchema = z.object({
  symbol: SymbolSchema.optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(1000, 'limit must be at most 1000')
    .default(100),
});

export const SetLeverageRequestSchema = z.object({
  symbol: SymbolSchema,
  leverage: z.coerce
    .number({ error: 'leverage must be a number' })
    .int('leverage must be a whole number')
    .min(1, 'leverage must be between 1 and 125')
    .max(125, 'leverage must be between 1 and 125'),
});

export const FuturesOrderSchema = z.object({
  /** The exchange's id: a decimal string, since Binance's exceed 2^53 */
  orderId: z.string(),
  clientOrderId: z.string(),
  symbol: z.string(),
  side: OrderSideSchema,
  type: z.string(),
  status: z.string(),
  price: decimal,
  averagePrice: decimal,
  quantity: decimal,
  executedQuantity: decimal,
  timeInForce: z.string(),
  reduceOnly: z.boolean(),
  positionSide: PositionSideSchema,
  updatedAt: z.number().int(),
});
export type FuturesOrder = z.infer<typeof FuturesOrderSchema>;

export const FuturesPositionSchema = z.object({
  symbol: z.string(),
  positionSide: PositionSideSchema,
  /** Signed: negative is short */
  amount: decimal,
  entryPrice: decimal,
  markPrice: decimal,
  unrealizedPnl: decimal,
  liquidationPrice: decimal,
  notional: decimal,
  initialMargin: decimal,
  maintenanceMargin: decimal,
  updatedAt: z.number().int(),
});
export type FuturesPosition = z.infer<typeof FuturesPositionSchema>;

export const FuturesAccountInfoSchema = z.object({
  totalWalletBalance: decimal,
  totalUnrealizedPnl: decimal,
  totalMarginBalance: decimal,
  totalInitialMargin: decimal,
  totalMaintMargin: decimal,
  availableBalance: decimal,
  assets: z.array(
    z.object({
      asset: z.string(),
      walletBalance: decimal,
      unrealizedPnl: decimal,
      marginBalance: decimal,
      availableBalance: decimal,
    }),
  ),
  /** Open positions only */
  positions: z.array(FuturesPositionSchema),
});
export type FuturesAccountInfo = z.infer<typeof FuturesAccountInfoSchema>;

export const FuturesTradeSchema = z.object({
  id: z.string(),
  orderId: z.string(),
  symbol: z.string(),
  side: OrderSideSchema,
  positionSide: PositionSideSchema,
  price: decimal,
  quantity: decimal,
  quoteQuantity: decimal,
  realizedPnl: decimal,
  commission: decimal,
  commissionAsset: z.string(),
  maker: z.boolean(),
  time: z.number().int(),
});
export type FuturesTrade = z.infer<typeof FuturesTradeSchema>;

/** Trading rules of a symbol: how an order form rounds prices (tickSize) and sizes (stepSize) */
export const SymbolInfoSchema = z.object({
  symbol: z.string(),
  status: z.string(),
  baseAsset: z.string(),
  quoteAsset: z.string(),
  pricePrecision: z.number().int(),
  quantityPrecision: z.number().int(),
  tickSize: decimal,
  stepSize: decimal,
  minQuantity: decimal,
  maxQuantity: decimal,
  minNotional: decimal,
  orderTypes: z.array(z.string()),
});
export type SymbolInfo = z.infer<typeof SymbolInfoSchema>;

/** GET /api/futures/pnl: profit and loss of the last 7 days (Binance's income window) plus what is open now */
export const PnlSummarySchema = z.object({
  /** Window of the realized figures, ms since epoch */
  from: z.number().int(),
  to: z.number().int(),
  realizedPnl: decimal,
  commission: decimal,
  fundingFee: decimal,
  /** realized + commission + funding (fees are negative amounts) */
  netRealized: decimal,
  unrealizedPnl: decimal,
  bySymbol: z.array(
    z.object({ symbol: z.string(), realizedPnl: decimal, commission: decimal, fundingFee: decimal }),
  ),
});
export type PnlSummary = z.infer<typeof PnlSummarySchema>;

export const RiskLevelSchema = z.enum(['none', 'low', 'medium', 'high', 'critical']);

/**
 * GET /api/futures/risk/assessment. marginRatio = maintenance margin / margin balance (Binance liquidates at 1);
 * level: none without positions, then low < 0.3 ≤ medium < 0.6 ≤ high < 0.8 ≤ critical
 */
export const RiskAssessmentSchema = z.object({
  level: RiskLevelSchema,
  marginRatio: decimal,
  /** Total open notional / margin balance */
  effectiveLeverage: decimal,
  totalMarginBalance: decimal,
  totalMaintMargin: decimal,
  totalInitialMargin: decimal,
  positions: z.array(
    z.object({
      symbol: z.string(),
      positionSide: PositionSideSchema,
      amount: decimal,
      notional: decimal,
      markPrice: decimal,
      liquidationPrice: decimal,
      /** |mark − liquidation| / mark × 100; null when the exchange reports no liquidation price */
      liquidationDistancePercent: decimal.nullable(),
    }),
  ),
});
export type RiskAssessment = z.infer<typeof RiskAssessmentSchema>;

const ok = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), data, message: z.string() });
export const FuturesAccountInfoResponseSchema = ok(FuturesAccountInfoSchema);
export const FuturesOrderResponseSchema = ok(FuturesOrderSchema);
export const FuturesOrdersResponseSchema = ok(z.array(FuturesOrderSchema));
export const FuturesPositionsResponseSchema = ok(z.array(FuturesPositionSchema));
export const LeverageResponseSchema = ok(z.object({ symbol: z.string(), leverage: z.number().int() }));
export const FuturesTradesResponseSchema = ok(z.array(FuturesTradeSchema));
export const SymbolInfoResponseSchema = ok(SymbolInfoSchema);
export const PnlSummaryResponseSchema = ok(PnlSummarySchema);
export const RiskAssessmentResponseSchema = ok(RiskAssessmentSchema);
