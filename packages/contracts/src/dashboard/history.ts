import { z } from 'zod';
import { okResponse } from '../common/error-response';
import {
  countParam,
  decimal,
  fromNotAfterTo,
  ms,
  orderParam,
  pageOf,
  rangeQuery,
  sortParam,
} from '../common/fields';
import { FuturesTradeSchema, OrderSideSchema, PositionSideSchema } from '../futures/futures';
import { SymbolSchema } from '../market/market';

/** Most rows one page of the order or trade history carries; the CSV export has no limit */
export const HISTORY_MAX_PAGE_SIZE = 500;
/** Default span of the history reads when `from` is not given */
export const HISTORY_DEFAULT_RANGE_MS = 30 * 86_400_000;

/** Columns the trade history can be sorted on */
export const TRADE_SORT_FIELDS = [
  'time',
  'symbol',
  'price',
  'quantity',
  'quoteQuantity',
  'realizedPnl',
  'commission',
] as const;
export type TradeSortField = (typeof TRADE_SORT_FIELDS)[number];

/** Columns the order history can be sorted on */
export const ORDER_SORT_FIELDS = ['time', 'updatedAt', 'symbol', 'price', 'quantity', 'status'] as const;
export type OrderSortField = (typeof ORDER_SORT_FIELDS)[number];

const word = (name: string, example: string) =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z_]{1,40}$/, `${name} must be an upper-case word such as ${example}`);

/** Filters and page shared by the order and trade history */
const historyQuery = {
  ...rangeQuery,
  symbol: SymbolSchema.optional().describe('Only this symbol'),
  side: z.string().trim().toUpperCase().pipe(OrderSideSchema).optional().describe('Only BUY or SELL'),
  order: orderParam,
  page: countParam('page', { default: 1 }),
  pageSize: countParam('pageSize', { max: HISTORY_MAX_PAGE_SIZE, default: 100 }).describe(
    `Rows per page, at most ${HISTORY_MAX_PAGE_SIZE} (the export ignores it)`,
  ),
};

/**
 * GET /api/v1/dashboard/history/trades (and /export): the imported fills of a range, filtered, sorted (default
 * newest first) and paged
 */
export const TradeHistoryQuerySchema = fromNotAfterTo(
  z.strictObject({ ...historyQuery, sort: sortParam(TRADE_SORT_FIELDS) }),
);
export type TradeHistoryQuery = z.infer<typeof TradeHistoryQuerySchema>;

/** GET /api/v1/dashboard/history/orders (and /export): the imported orders, by the time they were placed */
export const OrderHistoryQuerySchema = fromNotAfterTo(
  z.strictObject({
    ...historyQuery,
    sort: sortParam(ORDER_SORT_FIELDS),
    type: word('type', 'LIMIT, MARKET').optional().describe('Only this order type (LIMIT, MARKET, STOP…)'),
    status: word('status', 'FILLED, CANCELED')
      .optional()
      .describe('Only this status (NEW, PARTIALLY_FILLED, FILLED, CANCELED, REJECTED, EXPIRED)'),
  }),
);
export type OrderHistoryQuery = z.infer<typeof OrderHistoryQuerySchema>;

/**
 * Who placed an order (and so its fills): one of your bots (null id and name once the bot is deleted), you through
 * Kestrel, the kill switch, or something outside Kestrel (the exchange's app, another tool)
 */
export const PlacedBySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('bot'), botId: z.uuid().nullable(), botName: z.string().nullable() }),
  z.object({ kind: z.literal('manual') }),
  z.object({ kind: z.literal('kill_switch') }),
  z.object({ kind: z.literal('outside') }),
]);
export type PlacedBy = z.infer<typeof PlacedBySchema>;

/** One fill of the history, with who placed its order (absent from servers before contracts 0.5.8) */
export const HistoryTradeSchema = FuturesTradeSchema.extend({ placedBy: PlacedBySchema.optional() });
export type HistoryTrade = z.infer<typeof HistoryTradeSchema>;

/** One plain order as the exchange last reported it */
export const HistoryOrderSchema = z.object({
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
  /** "0" without a trigger */
  triggerPrice: decimal,
  /** When it was placed, ms since epoch */
  time: ms,
  /** Last change, ms since epoch */
  updatedAt: ms,
  /** Absent from servers before contracts 0.5.8 */
  placedBy: PlacedBySchema.optional(),
});
export type HistoryOrder = z.infer<typeof HistoryOrderSchema>;

/** A page of the history, with how many rows match the filter and up to when the account was imported */
const page = <T extends z.ZodType>(item: T) => ({
  ...pageOf(item),
  /** When the account's orders and fills were last imported, ms since epoch; null before the first import */
  importedAt: ms.nullable(),
});

/** A sum per asset (fees may be paid in USDT, BNB…) */
export const AssetAmountSchema = z.object({ asset: z.string(), amount: decimal });
export type AssetAmount = z.infer<typeof AssetAmountSchema>;

export const TradeHistoryPageSchema = z.object({
  ...page(HistoryTradeSchema),
  /** Sums over every row matching the filter (not just this page) */
  totals: z.object({
    realizedPnl: decimal,
    /** Traded value in the quote asset */
    quoteQuantity: decimal,
    /** Fees paid (positive), per commission asset */
    commission: z.array(AssetAmountSchema),
  }),
});
export type TradeHistoryPage = z.infer<typeof TradeHistoryPageSchema>;

export const OrderHistoryPageSchema = z.object(page(HistoryOrderSchema));
export type OrderHistoryPage = z.infer<typeof OrderHistoryPageSchema>;

export const TradeHistoryPageResponseSchema = okResponse(TradeHistoryPageSchema);
export const OrderHistoryPageResponseSchema = okResponse(OrderHistoryPageSchema);

/** GET /api/v1/dashboard/history/symbols: every symbol the account has imported orders, fills or income in */
export const HistorySymbolsResponseSchema = okResponse(z.array(z.string()));
