import { z } from 'zod';
import { BacktestStatusSchema, OptimisationNoticeSchema } from '../backtest/job-status';
import { BookLevelSchema, KlineIntervalSchema, TapeTradeSchema } from '../market/market';
import type { LiveEventKind } from './socket-names';

export const TickerNoticeSchema = z.looseObject({
  symbol: z.string(),
  lastPrice: z.string(),
  priceChangePercent: z.string().optional(),
  time: z.number(),
});
export const MarkPriceNoticeSchema = z.looseObject({
  symbol: z.string(),
  markPrice: z.string(),
  time: z.number(),
});
export const OrderNoticeSchema = z.looseObject({
  symbol: z.string(),
  orderId: z.string(),
  clientOrderId: z.string().optional(),
  status: z.string(),
  time: z.number(),
});
export const PositionNoticeSchema = z.looseObject({
  symbol: z.string(),
  positionSide: z.string().optional(),
  time: z.number(),
});
export const BalanceNoticeSchema = z.looseObject({
  asset: z.string(),
  time: z.number(),
});
export const BotNoticeSchema = z.looseObject({
  botId: z.string(),
  type: z.string(),
  time: z.number(),
});

/** A backtest job changed status or made progress (progress pushes are throttled to one per 250 ms) */
export const BacktestNoticeSchema = z.looseObject({
  backtestId: z.string(),
  status: BacktestStatusSchema,
  /** 0..1 */
  progress: z.number().min(0).max(1),
  time: z.number(),
  error: z.string().optional(),
});

/**
 * One candle of a (symbol, interval) a socket subscribed to: the forming bar (at most 4 pushes a second per
 * stream, the latest figures win) and, once, the bar that just closed (`closed: true`). Times are the bar's open
 * and close in ms; prices and volume are decimal strings as the exchange sends them
 */
export const CandleNoticeSchema = z.looseObject({
  symbol: z.string(),
  interval: KlineIntervalSchema,
  openTime: z.number(),
  closeTime: z.number(),
  open: z.string(),
  high: z.string(),
  low: z.string(),
  close: z.string(),
  volume: z.string(),
  closed: z.boolean(),
  time: z.number(),
});

/**
 * The order book of a symbol a socket watches, as the server keeps it in sync with the exchange (snapshot and
 * diffs): the best levels per side (`BOOK_PUSH_LEVELS`), bids descending and asks ascending. At most one push per
 * 100 ms per symbol, the latest book wins
 */
export const BookNoticeSchema = z.looseObject({
  symbol: z.string(),
  /** The exchange's update id the book reflects */
  lastUpdateId: z.number(),
  bids: z.array(BookLevelSchema),
  asks: z.array(BookLevelSchema),
  time: z.number(),
});

/** Trades of a watched symbol since the last push (at most one push per 100 ms per symbol), oldest first */
export const TradesNoticeSchema = z.looseObject({
  symbol: z.string(),
  trades: z.array(TapeTradeSchema),
  time: z.number(),
});

/** A new entry of the owner's in-app notification list (`/api/v1/notifications`): pages refetch the list */
export const NotificationNoticeSchema = z.looseObject({
  notificationId: z.string(),
  event: z.string(),
  title: z.string(),
  time: z.number(),
});

export const LIVE_EVENT_SCHEMAS = {
  ticker: TickerNoticeSchema,
  markPrice: MarkPriceNoticeSchema,
  order: OrderNoticeSchema,
  position: PositionNoticeSchema,
  balance: BalanceNoticeSchema,
  bot: BotNoticeSchema,
  backtest: BacktestNoticeSchema,
  optimisation: OptimisationNoticeSchema,
  candle: CandleNoticeSchema,
  notification: NotificationNoticeSchema,
  book: BookNoticeSchema,
  trades: TradesNoticeSchema,
} as const;

export type TickerNotice = z.infer<typeof TickerNoticeSchema>;
export type MarkPriceNotice = z.infer<typeof MarkPriceNoticeSchema>;
export type OrderNotice = z.infer<typeof OrderNoticeSchema>;
export type PositionNotice = z.infer<typeof PositionNoticeSchema>;
export type BalanceNotice = z.infer<typeof BalanceNoticeSchema>;
export type BotNotice = z.infer<typeof BotNoticeSchema>;
export type BacktestNotice = z.infer<typeof BacktestNoticeSchema>;
export type CandleNotice = z.infer<typeof CandleNoticeSchema>;
export type BookNotice = z.infer<typeof BookNoticeSchema>;
export type TradesNotice = z.infer<typeof TradesNoticeSchema>;
export type NotificationNotice = z.infer<typeof NotificationNoticeSchema>;
export type LiveEventNotice = {
  [K in LiveEventKind]: z.infer<(typeof LIVE_EVENT_SCHEMAS)[K]>;
};
