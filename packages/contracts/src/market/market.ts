import { z } from 'zod';
import { dataResponse } from '../common/error-response';
import { countParam, decimal } from '../common/fields';
import { BOOK_PUSH_LEVELS } from '../socket/socket-names';

/** Decimal amounts travel as strings (exact, as the exchange sends them) */

/** A futures symbol such as BTCUSDT; lower case is accepted and upper-cased */
export const SymbolSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{3,20}$/, 'symbol must be 3-20 letters or digits, e.g. BTCUSDT');

export const SymbolParamsSchema = z.object({ symbol: SymbolSchema });

/**
 * Binance's kline intervals: the vocabulary on the wire, owned here. Bar math over them (lengths, where bars open,
 * calendar months) lives in `@kestrel/engine` (`bars/intervals.ts`), which imports this list.
 */
export const KLINE_INTERVALS = [
  '1m',
  '3m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '8h',
  '12h',
  '1d',
  '3d',
  '1w',
  '1M',
] as const;
/** One of Binance's kline interval names ('1m' … '1d', '3d', '1w', '1M') */
export type KlineInterval = (typeof KLINE_INTERVALS)[number];
export const KlineIntervalSchema = z.enum(KLINE_INTERVALS, {
  error: `interval must be one of ${KLINE_INTERVALS.join(', ')}`,
});

/** GET /api/v1/market/klines/{symbol}: spec defaults interval 1h, limit 100 */
export const KlinesQuerySchema = z.object({
  interval: KlineIntervalSchema.default('1h'),
  limit: countParam('limit', { max: 1500, default: 100 }),
});

/** GET /api/v1/market/data?symbols=BTCUSDT,ETHUSDT */
export const MarketDataQuerySchema = z.object({
  symbols: z
    .string({ error: 'symbols is required: a comma list such as BTCUSDT,ETHUSDT' })
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(SymbolSchema).min(1, 'symbols needs at least one symbol').max(50, 'at most 50 symbols')),
});

/** 24 h rolling statistics of one symbol */
export const TickerSchema = z.object({
  symbol: z.string(),
  lastPrice: decimal,
  priceChange: decimal,
  priceChangePercent: decimal,
  highPrice: decimal,
  lowPrice: decimal,
  volume: decimal,
  quoteVolume: decimal,
  openTime: z.number().int(),
  closeTime: z.number().int(),
});
export type Ticker = z.infer<typeof TickerSchema>;

export const KlineSchema = z.object({
  openTime: z.number().int(),
  open: decimal,
  high: decimal,
  low: decimal,
  close: decimal,
  volume: decimal,
  closeTime: z.number().int(),
  quoteVolume: decimal,
  trades: z.number().int().nonnegative(),
});
export type Kline = z.infer<typeof KlineSchema>;

export const TickerResponseSchema = dataResponse(TickerSchema);
export const MarketDataResponseSchema = dataResponse(z.array(TickerSchema));
export const KlinesResponseSchema = dataResponse(
  z.object({ symbol: z.string(), interval: KlineIntervalSchema, klines: z.array(KlineSchema) }),
);

/** GET /api/v1/market/status: is the configured exchange answering, and how far its clock is from ours */
export const MarketStatusSchema = z.object({
  exchange: z.literal('binance'),
  environment: z.enum(['simulator', 'testnet', 'mainnet']),
  reachable: z.boolean(),
  /** Exchange time minus server time, ms (null when unreachable) */
  clockOffsetMs: z.number().nullable(),
  /** Round trip of the time request, ms (null when unreachable) */
  latencyMs: z.number().nullable(),
  message: z.string(),
});
export type MarketStatus = z.infer<typeof MarketStatusSchema>;
export const MarketStatusResponseSchema = dataResponse(MarketStatusSchema);

/** One price level of a book: [price, quantity], decimal strings as the exchange sends them */
export const BookLevelSchema = z.tuple([z.string(), z.string()]);
export type BookLevel = z.infer<typeof BookLevelSchema>;

/** One aggregate trade: `buyerMaker` true is a taker sell (the buyer's order rested on the book) */
export const TapeTradeSchema = z.object({
  id: z.number(),
  price: z.string(),
  quantity: z.string(),
  buyerMaker: z.boolean(),
  time: z.number(),
});
export type TapeTrade = z.infer<typeof TapeTradeSchema>;

/** GET /api/v1/market/depth/{symbol}?limit=20: the best `limit` levels per side (at most the pushes' 50) */
export const DepthQuerySchema = z.object({
  limit: countParam('limit', { max: BOOK_PUSH_LEVELS, default: 20 }),
});
/**
 * The order book as the page opens it: the server's synced book when one is followed for its sockets (the same
 * the pushes carry), else the exchange's REST book
 */
export const OrderBookSchema = z.object({
  symbol: z.string(),
  lastUpdateId: z.number().int(),
  bids: z.array(BookLevelSchema),
  asks: z.array(BookLevelSchema),
  time: z.number().int(),
});
export type OrderBook = z.infer<typeof OrderBookSchema>;
export const OrderBookResponseSchema = dataResponse(OrderBookSchema);

/** GET /api/v1/market/trades/{symbol}?limit=30: the latest aggregate trades, newest last */
export const RecentTradesQuerySchema = z.object({ limit: countParam('limit', { max: 50, default: 30 }) });
export const RecentTradesSchema = z.object({ symbol: z.string(), trades: z.array(TapeTradeSchema) });
export type RecentTrades = z.infer<typeof RecentTradesSchema>;
export const RecentTradesResponseSchema = dataResponse(RecentTradesSchema);
