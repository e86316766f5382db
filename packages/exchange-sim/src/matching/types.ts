import type { Decimal } from '../common/format';

export type Side = 'BUY' | 'SELL';
export type PositionSide = 'BOTH' | 'LONG' | 'SHORT';
export type MarginType = 'CROSSED' | 'ISOLATED';
export type OrderType = 'LIMIT' | 'MARKET' | 'LIQUIDATION';
/** GTD: good till `goodTillDate`, then EXPIRED */
export type TimeInForce = 'GTC' | 'IOC' | 'FOK' | 'GTX' | 'GTD';
export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';

export interface Order {
  orderId: bigint;
  clientOrderId: string;
  symbol: string;
  side: Side;
  positionSide: PositionSide;
  type: OrderType;
  timeInForce: TimeInForce;
  price: Decimal;
  origQty: Decimal;
  executedQty: Decimal;
  cumQuote: Decimal;
  reduceOnly: boolean;
  status: OrderStatus;
  /** GTD orders: expiry, ms since epoch on a whole second; 0 otherwise */
  goodTillDate: number;
  time: number;
  updateTime: number;
}

export interface Position {
  symbol: string;
  positionSide: PositionSide;
  /** Signed: positive long, negative short */
  amt: Decimal;
  entryPrice: Decimal;
  /** Margin held by an isolated position (0 in cross) */
  isolatedWallet: Decimal;
  /** Realized PnL accumulated over the position's life (ACCOUNT_UPDATE `cr`) */
  accumulatedRealized: Decimal;
  updateTime: number;
}

export type AlgoOrderType =
  | 'STOP_MARKET'
  | 'TAKE_PROFIT_MARKET'
  | 'STOP'
  | 'TAKE_PROFIT'
  | 'TRAILING_STOP_MARKET';
export type AlgoStatus = 'NEW' | 'CANCELED' | 'TRIGGERED' | 'FINISHED' | 'REJECTED' | 'EXPIRED';

/** A conditional order on `/fapi/v1/algoOrder`: held by the algo service until its trigger, then sent as an order */
export interface AlgoOrder {
  algoId: number;
  clientAlgoId: string;
  symbol: string;
  side: Side;
  positionSide: PositionSide;
  orderType: AlgoOrderType;
  timeInForce: TimeInForce;
  /** Undefined with closePosition=true: the whole position at trigger time */
  quantity?: Decimal;
  closePosition: boolean;
  price: Decimal;
  triggerPrice: Decimal;
  workingType: 'MARK_PRICE' | 'CONTRACT_PRICE';
  priceProtect: boolean;
  reduceOnly: boolean;
  activatePrice?: Decimal;
  /** Percent (1 = 1%) */
  callbackRate?: Decimal;
  /** Trailing stops: whether the activation price was reached, and the extreme price since */
  activated: boolean;
  extreme?: number;
  status: AlgoStatus;
  actualOrderId: string;
  rejectReason: string;
  createTime: number;
  updateTime: number;
  triggerTime: number;
}

export interface Trade {
  id: number;
  orderId: bigint;
  symbol: string;
  side: Side;
  positionSide: PositionSide;
  price: Decimal;
  qty: Decimal;
  quoteQty: Decimal;
  commission: Decimal;
  /** USDT, or BNB when the account's BNB fee discount is on and its BNB paid the fee (`fees.ts`) */
  commissionAsset: string;
  realizedPnl: Decimal;
  maker: boolean;
  time: number;
}

export type IncomeType = 'TRANSFER' | 'REALIZED_PNL' | 'FUNDING_FEE' | 'COMMISSION' | 'INSURANCE_CLEAR';

export interface Income {
  tranId: number;
  symbol: string;
  incomeType: IncomeType;
  income: Decimal;
  asset: string;
  info: string;
  time: number;
  tradeId: string;
}

/** Binance's per-key flags, as `GET /sapi/v1/account/apiRestrictions` reports them */
export interface KeyPermissions {
  ipRestrict: boolean;
  enableReading: boolean;
  enableWithdrawals: boolean;
  enableInternalTransfer: boolean;
  permitsUniversalTransfer: boolean;
  enableVanillaOptions: boolean;
  enableFutures: boolean;
  enableMargin: boolean;
  enableSpotAndMarginTrading: boolean;
  enableFixApiTrade: boolean;
  enableFixReadOnly: boolean;
}

export interface SymbolConfig {
  leverage: number;
  marginType: MarginType;
}

export interface Account {
  id: number;
  apiKey: string;
  /** HMAC secret; unused for a key registered with a public key */
  secretKey: string;
  /** RSA or Ed25519 public key (PEM) of an asymmetric API key: requests are signed with its private key */
  publicKey?: string;
  permissions: KeyPermissions;
  createTime: number;
  dualSidePosition: boolean;
  /** Wallet balance per asset; USDT carries the futures margin, isolated wallets included */
  balances: Map<string, Decimal>;
  makerRate: Decimal;
  takerRate: Decimal;
  /** BNB fee discount (`POST /fapi/v1/feeBurn`): fees paid in BNB, 10 % off, while the wallet's BNB covers them */
  feeBurn: boolean;
  configs: Map<string, SymbolConfig>;
  /** Keyed `${symbol}:${positionSide}` */
  positions: Map<string, Position>;
  /** Every order ever placed, in placement order */
  orders: Map<bigint, Order>;
  /** The NEW/PARTIALLY_FILLED subset of `orders`, kept apart so hot paths never scan the history */
  openOrders: Map<bigint, Order>;
  algoOrders: Map<number, AlgoOrder>;
  trades: Trade[];
  income: Income[];
  updateTime: number;
}
