import { z } from 'zod';
import { okResponse } from '../common/error-response';
import { countParam, decimal, incomeFields, walletFields } from '../common/fields';
import { SymbolSchema } from '../market/market';

export const positiveDecimal = z
  .string({ error: 'must be a decimal string such as "0.01"' })
  .trim()
  .regex(/^\d+(\.\d+)?$/, 'must be a decimal string such as "0.01"')
  .refine((s) => Number(s) > 0, 'must be greater than 0');

export const OrderSideSchema = z.enum(['BUY', 'SELL'], { error: 'side must be BUY or SELL' });
export const ORDER_TYPES = [
  'LIMIT',
  'MARKET',
  'STOP',
  'STOP_MARKET',
  'TAKE_PROFIT',
  'TAKE_PROFIT_MARKET',
  'TRAILING_STOP_MARKET',
] as const;
export const OrderTypeSchema = z.enum(ORDER_TYPES, {
  error: `type must be one of ${ORDER_TYPES.join(', ')}`,
});
/** Types that wait for a trigger (Binance's conditional "algo" orders) */
export const CONDITIONAL_ORDER_TYPES = ORDER_TYPES.filter((t) => t !== 'LIMIT' && t !== 'MARKET');
export const WorkingTypeSchema = z.enum(['MARK_PRICE', 'CONTRACT_PRICE'], {
  error: 'workingType must be MARK_PRICE or CONTRACT_PRICE',
});
/** `order`: a plain order; `conditional`: a stop, take-profit or trailing stop waiting for (or past) its trigger */
export const OrderKindSchema = z.enum(['order', 'conditional'], {
  error: 'kind must be order or conditional',
});
export const TimeInForceSchema = z.enum(['GTC', 'IOC', 'FOK', 'GTX', 'GTD'], {
  error: 'timeInForce must be GTC, IOC, FOK, GTX or GTD',
});
export const PositionSideSchema = z.enum(['BOTH', 'LONG', 'SHORT'], {
  error: 'positionSide must be BOTH, LONG or SHORT',
});

const LIMIT_PRICED: readonly string[] = ['LIMIT', 'STOP', 'TAKE_PROFIT'];
const TRIGGERED: readonly string[] = ['STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET'];

/**
 * POST /api/futures/orders/create (the spec leaves the body open). LIMIT and MARKET are plain orders; STOP,
 * STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET and TRAILING_STOP_MARKET are conditional orders that wait for a
 * trigger (price needed for the STOP and TAKE_PROFIT limit variants, triggerPrice for all but the trailing stop,
 * callbackRate for the trailing stop; closePosition instead of quantity closes the whole position).
 */
export const CreateOrderRequestSchema = z
  .object({
    symbol: SymbolSchema,
    side: OrderSideSchema,
    type: OrderTypeSchema.describe(
      'LIMIT and MARKET are plain orders; STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET and ' +
        'TRAILING_STOP_MARKET are conditional orders that wait for their trigger (kind "conditional")',
    ),
    /** Required unless closePosition */
    quantity: positiveDecimal.optional().describe('Base-asset quantity; required unless closePosition'),
    price: positiveDecimal
      .optional()
      .describe('Limit price: required for LIMIT, STOP and TAKE_PROFIT, else not sent'),
    timeInForce: TimeInForceSchema.optional(),
    goodTillDate: z
      .number({ error: 'goodTillDate must be a time in ms since epoch' })
      .int('goodTillDate must be a time in ms since epoch')
      .positive('goodTillDate must be a time in ms since epoch')
      .optional()
      .describe(
        'LIMIT with timeInForce GTD (required then): expiry in ms since epoch, more than 10 minutes ahead',
      ),
    reduceOnly: z.boolean().optional(),
    positionSide: PositionSideSchema.optional(),
    /** The caller's own id (1-36 of A-Z a-z 0-9 . : / _ -): sending the same id twice cannot make two orders */
    clientOrderId: z
      .string()
      .regex(/^[.A-Za-z0-9:/_-]{1,36}$/, 'clientOrderId must be 1-36 characters of A-Z a-z 0-9 . : / _ -')
      .optional(),
    /** STOP*, TAKE_PROFIT*: the price that fires the order */
    triggerPrice: positiveDecimal
      .optional()
      .describe('STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET: the price that fires the order'),
    /** What the trigger watches; default CONTRACT_PRICE (the last price) */
    workingType: WorkingTypeSchema.optional().describe(
      'What the trigger watches: CONTRACT_PRICE (last price, default) or MARK_PRICE',
    ),
    /** STOP_MARKET, TAKE_PROFIT_MARKET: close the whole position when fired (no quantity) */
    closePosition: z
      .boolean()
      .optional()
      .describe(
        'STOP_MARKET, TAKE_PROFIT_MARKET: close the whole position when fired (no quantity, no reduceOnly)',
      ),
    /** TRAILING_STOP_MARKET: start trailing once the price reaches this (default: at once) */
    activationPrice: positiveDecimal
      .optional()
      .describe('TRAILING_STOP_MARKET: start trailing once the price reaches this (default: at once)'),
    /** TRAILING_STOP_MARKET: how far the price may come back, in percent, 0.1 to 10 */
    callbackRate: positiveDecimal
      .refine((s) => Number(s) >= 0.1 && Number(s) <= 10, 'callbackRate must be between 0.1 and 10 (percent)')
      .optional()
      .describe('TRAILING_STOP_MARKET (required): how far the price may come back, in percent, 0.1 to 10'),
    /** Conditional orders: do not fire while mark and last price diverge too much */
    priceProtect: z
      .boolean()
      .optional()
      .describe('Conditional orders: do not fire while mark and last price diverge too much'),
  })
  .superRefine((o, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (LIMIT_PRICED.includes(o.type) && o.price === undefined)
      issue('price', `price is required for a ${o.type} order`);
    if (!LIMIT_PRICED.includes(o.type) && o.price !== undefined) {
      issue(
        'price',
        o.type === 'MARKET' ? 'a MARKET order takes no price' : `a ${o.type} order takes no price`,
      );
    }
    if (TRIGGERED.includes(o.type) && o.triggerPrice === undefined) {
      issue('triggerPrice', `triggerPrice is required for a ${o.type} order`);
    }
    if (!TRIGGERED.includes(o.type) && o.triggerPrice !== undefined) {
      issue('triggerPrice', `a ${o.type} order takes no triggerPrice`);
    }
    if (o.type === 'TRAILING_STOP_MARKET' && o.callbackRate === undefined) {
      issue('callbackRate', 'callbackRate is required for a TRAILING_STOP_MARKET order');
    }
    if (
      o.type !== 'TRAILING_STOP_MARKET' &&
      (o.callbackRate !== undefined || o.activationPrice !== undefined)
    ) {
      issue('callbackRate', 'callbackRate and activationPrice are only for a TRAILING_STOP_MARKET order');
    }
    if (o.closePosition) {
      if (o.type !== 'STOP_MARKET' && o.type !== 'TAKE_PROFIT_MARKET') {
        issue('closePosition', 'closePosition is only for STOP_MARKET and TAKE_PROFIT_MARKET orders');
      }
      if (o.quantity !== undefined)
        issue('quantity', 'closePosition closes the whole position: send no quantity');
      if (o.reduceOnly !== undefined)
        issue('reduceOnly', 'closePosition already only reduces: send no reduceOnly');
    } else if (o.quantity === undefined) {
      issue(
        'quantity',
        'quantity is required (or closePosition for a STOP_MARKET / TAKE_PROFIT_MARKET order)',
      );
    }
    if (o.timeInForce === 'GTD' && o.type !== 'LIMIT')
      issue('timeInForce', 'timeInForce GTD is only for LIMIT orders');
    if (o.timeInForce === 'GTD' && o.goodTillDate === undefined) {
      issue('goodTillDate', 'goodTillDate is required with timeInForce GTD');
    }
    if (o.timeInForce !== 'GTD' && o.goodTillDate !== undefined) {
      issue('goodTillDate', 'goodTillDate is only for timeInForce GTD');
    }
    if (o.type === 'LIMIT' || o.type === 'MARKET') {
      if (o.workingType !== undefined) issue('workingType', 'workingType is only for conditional orders');
      if (o.priceProtect !== undefined) issue('priceProtect', 'priceProtect is only for conditional orders');
    }
  });
export type CreateOrderRequest = z.infer<typeof CreateOrderRequestSchema>;

/** `kind` from the order being canceled; without it a plain order is tried first, then a conditional one */
export const CancelOrderRequestSchema = z.object({
  symbol: SymbolSchema,
  kind: OrderKindSchema.optional().describe(
    'The kind of the order being canceled (from the order); without it a plain order is tried first, then a conditional one',
  ),
});
export const OrderIdParamsSchema = z.object({
  id: z.string().regex(/^\d{1,20}$/, 'order id must be the exchange order id (digits)'),
});
export const OptionalSymbolQuerySchema = z.object({ symbol: SymbolSchema.optional() });
export const SymbolQuerySchema = z.object({
  symbol: z.string({ error: 'symbol is required, e.g. ?symbol=BTCUSDT' }).pipe(SymbolSchema),
});

/**
 * GET /api/futures/history/{orders,trades}: limit defaults to 100 (spec), newest first, over the exchange's recent
 * window (Binance: 7 days). Without a symbol: every symbol the account was active in (fills, positions, open
 * orders), at most the 20 most recently active.
 */
export const HistoryQuerySchema = z.object({
  symbol: SymbolSchema.optional(),
  limit: countParam('limit', { max: 1000, default: 100 }),
});

export const SetLeverageRequestSchema = z.object({
  symbol: SymbolSchema,
  leverage: z.coerce
    .number({ error: 'leverage must be a number' })
    .int('leverage must be a whole number')
    .min(1, 'leverage must be between 1 and 125')
    .max(125, 'leverage must be between 1 and 125'),
});

/**
 * An order or a conditional order. Conditional orders: `orderId` is the exchange's id of the conditional order
 * (cancel with kind "conditional"), status NEW (waiting), TRIGGERED (its order is working), FINISHED, CANCELED,
 * REJECTED or EXPIRED; their fills belong to the order in `triggeredOrderId`
 */
export const FuturesOrderSchema = z.object({
  /** The exchange's id: a decimal string, since Binance's exceed 2^53 */
  orderId: z.string(),
  clientOrderId: z.string(),
  kind: OrderKindSchema.describe('order: a plain order; conditional: a stop, take-profit or trailing stop'),
  symbol: z.string(),
  side: OrderSideSchema,
  type: z.string(),
  status: z
    .string()
    .describe(
      'Orders: NEW, PARTIALLY_FILLED, FILLED, CANCELED, REJECTED, EXPIRED. Conditional orders: NEW (waiting), ' +
        'TRIGGERED, FINISHED, CANCELED, REJECTED, EXPIRED',
    ),
  price: decimal,
  averagePrice: decimal,
  quantity: decimal,
  executedQuantity: decimal,
  timeInForce: z.string(),
  reduceOnly: z.boolean(),
  positionSide: PositionSideSchema,
  /** "0" for plain orders */
  triggerPrice: decimal,
  workingType: WorkingTypeSchema.nullable(),
  closePosition: z.boolean(),
  activationPrice: decimal.nullable(),
  /** Percent */
  callbackRate: decimal.nullable(),
  /** A conditional order that fired: the id of the order it placed */
  triggeredOrderId: z
    .string()
    .nullable()
    .describe('A conditional order that fired: the id of the order it placed (its fills are there)'),
  /** GTD orders: expiry, ms since epoch */
  goodTillDate: z.number().int().nullable(),
  /** Last change, ms since epoch (history is sorted on it, newest first) */
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
  /** The position's own initial margin at the mark price (open orders' margin not included): |notional| / leverage */
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
  assets: z.array(z.object({ asset: z.string(), ...walletFields })),
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
  ...incomeFields,
  /** realized + commission + funding (fees are negative amounts) */
  netRealized: decimal,
  unrealizedPnl: decimal,
  bySymbol: z.array(z.object({ symbol: z.string(), ...incomeFields })),
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

export const FuturesAccountInfoResponseSchema = okResponse(FuturesAccountInfoSchema);
export const FuturesOrderResponseSchema = okResponse(FuturesOrderSchema);
export const FuturesOrdersResponseSchema = okResponse(z.array(FuturesOrderSchema));
export const FuturesPositionsResponseSchema = okResponse(z.array(FuturesPositionSchema));
/** GET /api/futures/symbols/config: how the account trades a symbol (Binance's symbolConfig) */
export const SymbolConfigSchema = z.object({
  symbol: z.string(),
  marginType: z.enum(['cross', 'isolated']),
  leverage: z.number().int(),
  /** The largest position notional the leverage allows (the leverage bracket's cap) */
  maxNotional: decimal,
});
export type SymbolConfig = z.infer<typeof SymbolConfigSchema>;
export const SymbolConfigResponseSchema = okResponse(SymbolConfigSchema);

export const LeverageResponseSchema = okResponse(
  z.object({ symbol: z.string(), leverage: z.number().int() }),
);
export const FuturesTradesResponseSchema = okResponse(z.array(FuturesTradeSchema));
export const SymbolInfoResponseSchema = okResponse(SymbolInfoSchema);
export const PnlSummaryResponseSchema = okResponse(PnlSummarySchema);
export const RiskAssessmentResponseSchema = okResponse(RiskAssessmentSchema);
