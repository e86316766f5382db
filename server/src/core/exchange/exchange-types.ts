/**
 * The exchange's primitive types, apart from the adapter so the stream events (`exchange-streams.ts`) and the
 * adapter (which carries the streams) both read them without importing each other
 */

import type { OrderSideSchema, PositionSideSchema, TradingEnvironment } from '@kestrel/contracts';
import type { z } from 'zod';

export type Decimal = string;

export type OrderSide = z.infer<typeof OrderSideSchema>;

export type PositionSide = z.infer<typeof PositionSideSchema>;

/**
 * Orders: NEW, PARTIALLY_FILLED, FILLED, CANCELED, REJECTED, EXPIRED. Conditional orders: NEW (waiting),
 * TRIGGERED (fired, its order still working), FINISHED (its order done), CANCELED, REJECTED, EXPIRED
 */
export type OrderStatus =
  | 'NEW'
  | 'PARTIALLY_FILLED'
  | 'FILLED'
  | 'CANCELED'
  | 'REJECTED'
  | 'EXPIRED'
  | 'TRIGGERED'
  | 'FINISHED';

export interface ExchangeKeys {
  apiKey: string;
  secretKey: string;
  /**
   * The environment the key belongs to (the vault tags every key it opens). The environment router
   * (`exchange-router.ts`) sends a keyed call only to this environment's host and refuses an untagged key
   */
  environment?: TradingEnvironment;
}

/** One price level: [price, quantity] */
export type BookLevel = [price: Decimal, quantity: Decimal];

/** `GET /fapi/v1/depth`: the book as of `lastUpdateId`, bids descending, asks ascending */
export interface OrderBookSnapshot {
  lastUpdateId: number;
  bids: BookLevel[];
  asks: BookLevel[];
  time: number;
}

/** One aggregate trade (`aggTrades`, `@aggTrade`): `buyerMaker` true is a taker sell */
export interface AggregateTrade {
  id: number;
  price: Decimal;
  quantity: Decimal;
  buyerMaker: boolean;
  time: number;
}

export interface Kline {
  openTime: number;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal;
  closeTime: number;
  quoteVolume: Decimal;
  trades: number;
}
