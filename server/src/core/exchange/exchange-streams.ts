/**
 * Live streams of an exchange, in our own terms (decimal strings, string ids, ms times). An adapter whose
 * `capabilities.liveStreams` is true offers them as `adapter.streams`. Streams reconnect by themselves; after a
 * reconnect the state callback says `gap: true`, since events may have been missed while the socket was down.
 */
import type {
  BookLevel,
  Decimal,
  ExchangeKeys,
  Kline,
  OrderSide,
  OrderStatus,
  PositionSide,
} from './exchange-types';

/** `depth`: the diff book stream (every 100 ms); `aggTrade`: each aggregate trade */
export type MarketTopicKind = 'ticker' | 'markPrice' | 'bookTicker' | 'kline' | 'depth' | 'aggTrade';

/** One market stream of one symbol; `interval` only for klines (1m, 1h, …) */
export interface MarketTopic {
  symbol: string;
  kind: MarketTopicKind;
  interval?: string;
}

export interface TickerEvent {
  type: 'ticker';
  symbol: string;
  lastPrice: Decimal;
  priceChange: Decimal;
  priceChangePercent: Decimal;
  openPrice: Decimal;
  highPrice: Decimal;
  lowPrice: Decimal;
  volume: Decimal;
  quoteVolume: Decimal;
  time: number;
}

export interface MarkPriceEvent {
  type: 'markPrice';
  symbol: string;
  markPrice: Decimal;
  indexPrice: Decimal;
  fundingRate: Decimal;
  nextFundingTime: number;
  time: number;
}

export interface BookTickerEvent {
  type: 'bookTicker';
  symbol: string;
  bidPrice: Decimal;
  bidQuantity: Decimal;
  askPrice: Decimal;
  askQuantity: Decimal;
  time: number;
}

export interface KlineEvent {
  type: 'kline';
  symbol: string;
  interval: string;
  kline: Kline;
  /** The bar is final (its close time has passed) */
  closed: boolean;
  time: number;
}

/**
 * A change of the book (Binance's diff depth event): absolute quantities of the levels that changed, quantity 0
 * removes a level. It covers update ids `firstUpdateId`..`finalUpdateId`; `previousFinalUpdateId` is the final id
 * of the event before it, so a missed event shows as a break in the chain
 */
export interface DepthEvent {
  type: 'depth';
  symbol: string;
  firstUpdateId: number;
  finalUpdateId: number;
  previousFinalUpdateId: number;
  bids: BookLevel[];
  asks: BookLevel[];
  time: number;
}

export interface AggTradeEvent {
  type: 'aggTrade';
  symbol: string;
  id: number;
  price: Decimal;
  quantity: Decimal;
  /** A taker sell: the buyer's order rested on the book */
  buyerMaker: boolean;
  time: number;
}

export type MarketEvent =
  | TickerEvent
  | MarkPriceEvent
  | BookTickerEvent
  | KlineEvent
  | DepthEvent
  | AggTradeEvent;

/** What happened to the order: placed, (partly) filled, canceled, expired, or liquidated by the exchange */
export type ExecutionType = 'NEW' | 'TRADE' | 'CANCELED' | 'EXPIRED' | 'LIQUIDATION' | 'AMENDMENT' | string;

export interface OrderUpdateEvent {
  type: 'order';
  symbol: string;
  orderId: string;
  clientOrderId: string;
  side: OrderSide;
  orderType: string;
  executionType: ExecutionType;
  status: OrderStatus;
  price: Decimal;
  averagePrice: Decimal;
  quantity: Decimal;
  executedQuantity: Decimal;
  lastFilledQuantity: Decimal;
  lastFilledPrice: Decimal;
  commission: Decimal;
  commissionAsset: string;
  realizedPnl: Decimal;
  positionSide: PositionSide;
  reduceOnly: boolean;
  time: number;
  /** The trade's id on a TRADE execution: the same fill read back from `userTrades` has it too */
  tradeId?: string;
}

export interface BalanceChange {
  asset: string;
  walletBalance: Decimal;
  crossWalletBalance: Decimal;
  /** Change not caused by PnL or commission (transfers) */
  balanceChange: Decimal;
}

export interface PositionChange {
  symbol: string;
  positionSide: PositionSide;
  /** Signed: negative is short */
  amount: Decimal;
  entryPrice: Decimal;
  unrealizedPnl: Decimal;
  marginType: 'cross' | 'isolated' | string;
}

export interface AccountUpdateEvent {
  type: 'account';
  /** Why: ORDER, FUNDING_FEE, DEPOSIT, WITHDRAW, … */
  reason: string;
  balances: BalanceChange[];
  positions: PositionChange[];
  time: number;
}

/** A conditional (algo) order changed: placed, triggered, canceled, expired or rejected */
export interface AlgoOrderUpdateEvent {
  type: 'algoOrder';
  symbol: string;
  /** The exchange's algo id, as a decimal string */
  algoId: string;
  clientAlgoId: string;
  /** STOP_MARKET, TAKE_PROFIT_MARKET, TRAILING_STOP_MARKET, STOP, TAKE_PROFIT */
  orderType: string;
  side: OrderSide;
  positionSide: PositionSide;
  /** NEW, TRIGGERING, TRIGGERED, FINISHED, CANCELED, EXPIRED, REJECTED */
  status: string;
  triggerPrice: Decimal;
  price: Decimal;
  quantity: Decimal;
  reduceOnly: boolean;
  closePosition: boolean;
  /** Id of the order the trigger placed, once triggered */
  triggeredOrderId?: string;
  /** The exchange's reason for a rejection */
  reason?: string;
  time: number;
}

export type UserDataEvent = OrderUpdateEvent | AccountUpdateEvent | AlgoOrderUpdateEvent;

/**
 * `open` once connected (`gap`: after a reconnect, or a user-data event that could not be read, events may have
 * been missed); `reconnecting` while down
 */
export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface StreamHandlers<E> {
  onEvent(event: E): void;
  onState?(state: StreamState, info: { gap: boolean }): void;
  /** Failures the stream recovers from by itself (keepalive refused, malformed frame); for logs */
  onError?(error: Error): void;
}

export interface MarketStream {
  /** Starts streaming these topics (topics already streamed are ignored) */
  add(topics: readonly MarketTopic[]): void;
  /** Stops these topics; the connection closes when none is left */
  remove(topics: readonly MarketTopic[]): void;
  readonly topics: readonly MarketTopic[];
  close(): Promise<void>;
}

export interface UserDataStream {
  /** The current listenKey, once one was created */
  readonly listenKey: string | undefined;
  close(): Promise<void>;
}

export interface UserDataStreamOptions {
  /**
   * Close the listenKey when the stream closes (default true). A listenKey is per account, not per connection:
   * callers that share the account with other consumers (other server instances, bots) leave it to expire instead
   */
  closeListenKey?: boolean;
}

export interface ExchangeStreams {
  marketStream(handlers: StreamHandlers<MarketEvent>): MarketStream;
  userDataStream(
    keys: ExchangeKeys,
    handlers: StreamHandlers<UserDataEvent>,
    options?: UserDataStreamOptions,
  ): UserDataStream;
}
