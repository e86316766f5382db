/**
 * The exchange, in our own terms. Prices, quantities and money are decimal strings (never floats); order ids are
 * strings (Binance's exceed 2^53). Callers never see a Binance payload, so another venue can implement this too.
 */

import type {
  OrderKindSchema,
  OrderTypeSchema,
  TimeInForceSchema,
  WorkingTypeSchema,
} from '@kestrel/contracts';
import { CONDITIONAL_ORDER_TYPES as CONTRACT_CONDITIONAL_TYPES } from '@kestrel/contracts';
import type { LeverageBracket } from '@kestrel/engine';
import type { z } from 'zod';
import type { ExchangeStreams } from './exchange-streams';
import type {
  AggregateTrade,
  Decimal,
  ExchangeKeys,
  Kline,
  OrderBookSnapshot,
  OrderSide,
  OrderStatus,
  PositionSide,
} from './exchange-types';

export type {
  AggregateTrade,
  BookLevel,
  Decimal,
  ExchangeKeys,
  Kline,
  OrderBookSnapshot,
  OrderSide,
  OrderStatus,
  PositionSide,
} from './exchange-types';

export type OrderType = z.infer<typeof OrderTypeSchema>;
/**
 * Conditional orders wait for a trigger price before they become an order (STOP/TAKE_PROFIT: a limit order,
 * the *_MARKET types and trailing stops: a market order)
 */
export type ConditionalOrderType = Exclude<OrderType, 'LIMIT' | 'MARKET'>;
/** GTD: good till `goodTillDate` (LIMIT orders) */
export type TimeInForce = z.infer<typeof TimeInForceSchema>;
/** `order`: in the book or done; `conditional`: waiting for its trigger (or fired, see `triggeredOrderId`) */
export type OrderKind = z.infer<typeof OrderKindSchema>;
/** Price a trigger watches: the mark price, or the last traded (contract) price */
export type WorkingType = z.infer<typeof WorkingTypeSchema>;

export function isConditionalType(type: string): type is ConditionalOrderType {
  return (CONTRACT_CONDITIONAL_TYPES as readonly string[]).includes(type);
}

/** The conditional types of the contracts' order types, typed as such */
export const CONDITIONAL_ORDER_TYPES: readonly ConditionalOrderType[] =
  CONTRACT_CONDITIONAL_TYPES.filter(isConditionalType);

/** What this venue and configuration can do; callers check before offering a feature */
export interface ExchangeCapabilities {
  hedgeMode: boolean;
  /** Whether key permissions (e.g. withdrawals) can be read; not on testnet, which has no wallet host */
  keyPermissions: boolean;
  orderTypes: readonly OrderType[];
  timeInForce: readonly TimeInForce[];
  /** Live market and user-data streams (`adapter.streams`) are available */
  liveStreams: boolean;
}

export interface NewOrder {
  symbol: string;
  side: OrderSide;
  type: OrderType;
  /** Required unless `closePosition` */
  quantity?: Decimal;
  /** Required for LIMIT, STOP and TAKE_PROFIT */
  price?: Decimal;
  /** Conditional orders except trailing stops: the price that fires the order */
  triggerPrice?: Decimal;
  /** What the trigger watches (default CONTRACT_PRICE, the last price) */
  workingType?: WorkingType;
  /** STOP_MARKET / TAKE_PROFIT_MARKET: close the whole position when fired (no quantity) */
  closePosition?: boolean;
  /** TRAILING_STOP_MARKET: the price from which the stop starts trailing (default: at once) */
  activationPrice?: Decimal;
  /** TRAILING_STOP_MARKET: distance the price may come back, in percent (0.1 to 10) */
  callbackRate?: Decimal;
  /** Conditional orders: refuse to fire when mark and last price diverge too much */
  priceProtect?: boolean;
  /** LIMIT with timeInForce GTD: expiry, ms since epoch (Binance: more than 600 s ahead, whole seconds) */
  goodTillDate?: number;
  timeInForce?: TimeInForce;
  reduceOnly?: boolean;
  positionSide?: PositionSide;
  /** Our own id (1-36 of `.A-Za-z0-9:/_-`); generated when absent. Orders are found again by it */
  clientOrderId?: string;
}

export interface Order {
  /** The exchange's id, as a decimal string (conditional orders: the exchange's id of the conditional order) */
  orderId: string;
  clientOrderId: string;
  kind: OrderKind;
  symbol: string;
  side: OrderSide;
  type: string;
  status: OrderStatus;
  price: Decimal;
  averagePrice: Decimal;
  quantity: Decimal;
  executedQuantity: Decimal;
  timeInForce: string;
  reduceOnly: boolean;
  positionSide: PositionSide;
  /** '0' for orders without a trigger */
  triggerPrice: Decimal;
  workingType: WorkingType | null;
  closePosition: boolean;
  activationPrice: Decimal | null;
  callbackRate: Decimal | null;
  /** A conditional order that fired: the id of the order it placed */
  triggeredOrderId: string | null;
  /** GTD orders: expiry, ms since epoch */
  goodTillDate: number | null;
  /** ms since epoch */
  updatedAt: number;
}

/** An order with the time it was placed (the order history lists it) */
export interface PlacedOrder extends Order {
  /** ms since epoch */
  placedAt: number;
}

/** Which order to cancel or look up: by exchange id or by our client id; `kind` when the caller knows it */
export interface OrderRef {
  orderId?: string;
  clientOrderId?: string;
  kind?: OrderKind;
}

export interface Position {
  symbol: string;
  positionSide: PositionSide;
  /** Signed: negative is short */
  amount: Decimal;
  entryPrice: Decimal;
  markPrice: Decimal;
  unrealizedPnl: Decimal;
  liquidationPrice: Decimal;
  notional: Decimal;
  /** The position's initial margin at the mark price, open orders' margin not included */
  initialMargin: Decimal;
  maintenanceMargin: Decimal;
  updatedAt: number;
}

export interface AssetBalance {
  asset: string;
  walletBalance: Decimal;
  unrealizedPnl: Decimal;
  marginBalance: Decimal;
  availableBalance: Decimal;
}

/**
 * A position as the account overview lists it. Binance's v3 account carries no entry, mark or liquidation price:
 * read `positions()` for those
 */
export type AccountPosition = Omit<Position, 'entryPrice' | 'markPrice' | 'liquidationPrice'>;

export interface AccountSnapshot {
  totalWalletBalance: Decimal;
  totalUnrealizedPnl: Decimal;
  totalMarginBalance: Decimal;
  totalInitialMargin: Decimal;
  totalMaintMargin: Decimal;
  availableBalance: Decimal;
  assets: AssetBalance[];
  positions: AccountPosition[];
}

export interface SymbolConfig {
  symbol: string;
  marginType: 'cross' | 'isolated';
  leverage: number;
  maxNotional: Decimal;
}

export interface KeyPermissions {
  canRead: boolean;
  canTradeFutures: boolean;
  canWithdraw: boolean;
  ipRestricted: boolean;
}

export interface Ticker {
  symbol: string;
  lastPrice: Decimal;
  priceChange: Decimal;
  priceChangePercent: Decimal;
  highPrice: Decimal;
  lowPrice: Decimal;
  volume: Decimal;
  quoteVolume: Decimal;
  openTime: number;
  closeTime: number;
}

/** One settled funding: the rate a position paid (long) or received (short) at `fundingTime` */
export interface FundingRate {
  symbol: string;
  fundingTime: number;
  fundingRate: Decimal;
}

/**
 * One notional tier of a symbol's leverage brackets: the engine's `LeverageBracket` (numbers, as Binance sends
 * them: table constants the engine computes with, not prices or quantities)
 */
export type LeverageBracketTier = LeverageBracket;

export interface Trade {
  id: string;
  orderId: string;
  symbol: string;
  side: OrderSide;
  positionSide: PositionSide;
  price: Decimal;
  quantity: Decimal;
  quoteQuantity: Decimal;
  realizedPnl: Decimal;
  commission: Decimal;
  commissionAsset: string;
  maker: boolean;
  time: number;
}

/** Trading rules of one symbol: what an order form needs to round prices and sizes */
export interface SymbolInfo {
  symbol: string;
  status: string;
  baseAsset: string;
  quoteAsset: string;
  pricePrecision: number;
  quantityPrecision: number;
  tickSize: Decimal;
  stepSize: Decimal;
  minQuantity: Decimal;
  maxQuantity: Decimal;
  /** MARKET_LOT_SIZE's maximum: a market order's largest quantity (Binance's is far below LOT_SIZE's) */
  marketMaxQuantity: Decimal;
  minNotional: Decimal;
  orderTypes: string[];
}

export type IncomeType = 'REALIZED_PNL' | 'COMMISSION' | 'FUNDING_FEE' | 'TRANSFER' | string;

export interface IncomeEntry {
  /** "" for account-wide entries (transfers) */
  symbol: string;
  incomeType: IncomeType;
  income: Decimal;
  asset: string;
  /** The exchange's note (e.g. the transfer kind) */
  info: string;
  time: number;
  /** The exchange's id of the entry, unique per income type and account (a decimal string) */
  tranId: string;
  /** The fill that booked it, "" otherwise */
  tradeId: string;
}

export interface ExchangeAdapter {
  readonly capabilities: ExchangeCapabilities;
  /** Present when `capabilities.liveStreams` */
  readonly streams?: ExchangeStreams;
  /** Server time minus local time, ms, as last measured */
  readonly clockOffsetMs: number;
  syncTime(): Promise<number>;
  ping(): Promise<void>;
  ticker(symbol: string): Promise<Ticker>;
  /** The order book's best `limit` levels per side (5, 10, 20, 50, 100, 500 or 1000). Public */
  depth(symbol: string, limit: number): Promise<OrderBookSnapshot>;
  /** The latest `limit` aggregate trades (at most 1000), oldest first. Public */
  aggTrades(symbol: string, limit: number): Promise<AggregateTrade[]>;
  /**
   * The last traded price now (`/fapi/v2/ticker/price`, never served from the shared market cache: a bot starting
   * lays its orders around it)
   */
  lastPrice(symbol: string): Promise<Decimal>;
  /**
   * Candles, oldest first: the latest `limit` ones, or from `range.startTime` forward (at most `limit`, none opening
   * after `range.endTime`). Public market data: no keys needed. The last one may still be open
   */
  klines(
    symbol: string,
    interval: string,
    limit: number,
    range?: { startTime?: number; endTime?: number },
  ): Promise<Kline[]>;
  /** Settled funding rates, oldest first, from `range.startTime` (at most `range.limit`, Binance allows 1000). Public */
  fundingRateHistory(
    symbol: string,
    range: { startTime: number; endTime: number; limit: number },
  ): Promise<FundingRate[]>;
  account(keys: ExchangeKeys): Promise<AccountSnapshot>;
  keyPermissions(keys: ExchangeKeys): Promise<KeyPermissions>;
  positions(keys: ExchangeKeys, symbol?: string): Promise<Position[]>;
  /** Whether the account holds a long and a short per symbol (hedge mode) or one position (`/positionSide/dual`) */
  hedgeMode(keys: ExchangeKeys): Promise<boolean>;
  /** Working orders and waiting conditional orders, optionally of one symbol */
  openOrders(keys: ExchangeKeys, symbol?: string): Promise<Order[]>;
  /**
   * Places an order, or a conditional order for the conditional types. Never retried blindly: a lost answer is
   * resolved by looking the order up by its client order id
   */
  placeOrder(keys: ExchangeKeys, order: NewOrder): Promise<Order>;
  /** The order (of `kind`, default a plain order) with this client order id, or undefined when there is none */
  findOrder(
    keys: ExchangeKeys,
    symbol: string,
    clientOrderId: string,
    kind?: OrderKind,
  ): Promise<Order | undefined>;
  /** Cancels an order or a conditional order; without `ref.kind` a plain order is tried first */
  cancelOrder(keys: ExchangeKeys, symbol: string, ref: OrderRef): Promise<Order>;
  /**
   * Orders and conditional orders of the exchange's recent window (Binance: 7 days), any status, newest first, at
   * most `limit`. Without a symbol, every symbol the account was active in
   */
  orderHistory(keys: ExchangeKeys, symbol: string | undefined, limit: number): Promise<Order[]>;
  /** Fills, newest first, at most `limit`; without a symbol, of every symbol the account was active in */
  trades(keys: ExchangeKeys, symbol: string | undefined, limit: number): Promise<Trade[]>;
  /**
   * Fills of one symbol with an id from `fromId` on, oldest first, at most `limit` (1000 at most): the account's
   * whole retained history page by page, whatever its age
   */
  tradesFrom(keys: ExchangeKeys, symbol: string, fromId: string, limit: number): Promise<Trade[]>;
  /**
   * Fills of one symbol from `startTime` on, oldest first, at most `limit` (1000 at most). Binance answers at most
   * the 7 days from `startTime`: page on with `tradesFrom`, or ask again 7 days later
   */
  tradesSince(keys: ExchangeKeys, symbol: string, startTime: number, limit: number): Promise<Trade[]>;
  /** Plain orders of one symbol with an id from `orderId` on, any status, oldest first, at most `limit` */
  ordersFrom(keys: ExchangeKeys, symbol: string, orderId: string, limit: number): Promise<PlacedOrder[]>;
  /** Undefined when the exchange does not list the symbol */
  symbolInfo(symbol: string): Promise<SymbolInfo | undefined>;
  /** Income entries (realized PnL, fees, funding), oldest first; without a range, the exchange's last 7 days */
  income(
    keys: ExchangeKeys,
    range: { startTime?: number; endTime?: number; limit: number },
  ): Promise<IncomeEntry[]>;
  /**
   * The symbol's leverage brackets (maintenance margin tiers) as they apply to this account. Binance serves them
   * only signed (USER_DATA), though they are the same for every regular account; undefined for an unknown symbol
   */
  leverageBrackets(keys: ExchangeKeys, symbol: string): Promise<LeverageBracketTier[] | undefined>;
  setLeverage(
    keys: ExchangeKeys,
    symbol: string,
    leverage: number,
  ): Promise<{ symbol: string; leverage: number }>;
  /** Cross or isolated margin for `symbol` (refused while it has open orders or a position; the same type is no change) */
  setMarginType(
    keys: ExchangeKeys,
    symbol: string,
    marginType: 'cross' | 'isolated',
  ): Promise<{ symbol: string; marginType: 'cross' | 'isolated' }>;
  /** Adds margin to an isolated position, or takes some out */
  changePositionMargin(
    keys: ExchangeKeys,
    change: { symbol: string; positionSide: PositionSide; amount: Decimal; direction: 'add' | 'reduce' },
  ): Promise<void>;
  /** How the account trades `symbol`: margin type, leverage and the notional cap of that leverage; undefined for an unknown symbol */
  symbolConfig(keys: ExchangeKeys, symbol: string): Promise<SymbolConfig | undefined>;
  /**
   * Dead-man switch: every open order of `symbol` is cancelled by the exchange unless this is called again within
   * `countdownTimeMs`; 0 disarms it
   */
  countdownCancelAll(keys: ExchangeKeys, symbol: string, countdownTimeMs: number): Promise<void>;
}

/** The exchange answered and refused: `code` is the venue's error code, `message` its reason, fit for a user */
export class ExchangeApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ExchangeApiError';
  }
}

/**
 * The exchange could not be asked or did not answer (refused connection, timeout, 5xx). `maybeExecuted` is true
 * when the request may have reached the matching engine (sent, then 5xx or timeout): for a POST that means unknown
 */
export class ExchangeUnavailableError extends Error {
  constructor(
    message: string,
    readonly maybeExecuted: boolean,
  ) {
    super(message);
    this.name = 'ExchangeUnavailableError';
  }
}

/** Over the request-weight limit (429) or banned (418), or held back by us to avoid that; retry after `retryAfterMs` */
export class ExchangeRateLimitError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'ExchangeRateLimitError';
  }
}

/** One unreadable field of an exchange answer: `path` like `[0].markPrice` (empty for the whole answer) */
export interface ExchangeResponseIssue {
  path: string;
  message: string;
}

/**
 * The exchange answered, but with something we cannot read: a field missing or of the wrong type. Nothing is
 * guessed in its place. `source` names the answer (`GET /fapi/v3/positionRisk`, `ORDER_TRADE_UPDATE event`)
 */
export class ExchangeResponseError extends Error {
  constructor(
    readonly source: string,
    readonly issues: readonly ExchangeResponseIssue[],
  ) {
    const [first] = issues;
    const what = first ? `${first.path ? `${first.path}: ` : ''}${first.message}` : 'unreadable answer';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(`${source}: ${what}${more}`);
    this.name = 'ExchangeResponseError';
  }
}

/**
 * A create whose answer was lost (5xx, timeout, reset), looked up at once and not found. Binance may still execute
 * a request that arrives within its recvWindow, so "not found" only proves "not placed" once that window has
 * passed: the order manager keeps such an order unknown until then. Callers that do not care see the plain
 * "not reachable, not placed" error it extends
 */
export class LostOrderNotFoundError extends ExchangeUnavailableError {
  constructor(
    readonly clientOrderId: string,
    message: string,
  ) {
    super(message, false);
    this.name = 'LostOrderNotFoundError';
  }
}

/** An order whose fate could not be learned: the create answer was lost and the follow-up lookup failed too */
export class OrderStatusUnknownError extends Error {
  constructor(
    readonly clientOrderId: string,
    cause: Error,
  ) {
    super(
      `The exchange did not confirm order ${clientOrderId} and could not be asked about it (${cause.message}); ` +
        'look it up by this client order id before placing it again',
    );
    this.name = 'OrderStatusUnknownError';
  }
}
