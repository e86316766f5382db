/** Order types as on Binance (stop, take-profit and trailing are algo orders there) */
export type OrderType = 'market' | 'limit' | 'stop-market' | 'take-profit-market' | 'trailing-stop-market';
export type OrderSide = 'buy' | 'sell';
/** in-flight: submitted, not yet seen by the exchange; open: resting; the rest are closed */
export type OrderStatus = 'in-flight' | 'open' | 'filled' | 'canceled' | 'rejected' | 'expired';

/** What a strategy asks for */
export interface OrderRequest {
  side: OrderSide;
  type: OrderType;
  /** Base quantity; ignored with closePosition */
  quantity?: number;
  /** Limit price */
  price?: number;
  /** Stop / take-profit trigger */
  triggerPrice?: number;
  /** Trailing stop callback as a fraction (0.01 = 1 %), Binance allows 0.1 %–10 % */
  callbackRate?: number;
  /** Trailing stop starts tracking once price reaches this (default: at once) */
  activationPrice?: number;
  reduceOnly?: boolean;
  /** Close the whole position whatever its size when triggered (stop and take-profit only) */
  closePosition?: boolean;
  /** Free label for the strategy's own bookkeeping (grid level, safety order number…) */
  tag?: string;
}

/** A read-only view of an order */
export interface OrderView {
  readonly id: number;
  readonly side: OrderSide;
  readonly type: OrderType;
  readonly quantity: number;
  readonly price: number;
  readonly triggerPrice: number;
  readonly reduceOnly: boolean;
  readonly closePosition: boolean;
  readonly tag: string;
  readonly status: OrderStatus;
  readonly filledQty: number;
  readonly avgFillPrice: number;
  readonly submittedAt: number;
  readonly closedAt: number;
  readonly reason: string;
}

/** Mutable inside the broker only; fixed shape keeps property access monomorphic */
export class Order implements OrderView {
  status: OrderStatus = 'in-flight';
  filledQty = 0;
  avgFillPrice = 0;
  closedAt = Number.NaN;
  reason = '';
  /** Trailing stop: best price seen since activation (high for sells, low for buys), NaN until active */
  extreme = Number.NaN;
  constructor(
    readonly id: number,
    readonly side: OrderSide,
    readonly type: OrderType,
    readonly quantity: number,
    readonly price: number,
    readonly triggerPrice: number,
    readonly callbackRate: number,
    readonly activationPrice: number,
    readonly reduceOnly: boolean,
    readonly closePosition: boolean,
    readonly tag: string,
    readonly submittedAt: number,
  ) {}
}

/** An execution; immutable once emitted */
export interface Fill {
  readonly orderId: number;
  readonly tag: string;
  readonly time: number;
  readonly barIndex: number;
  readonly side: OrderSide;
  readonly quantity: number;
  readonly price: number;
  readonly fee: number;
  readonly liquidity: 'maker' | 'taker' | 'liquidation';
  /** PnL realized by the reducing part of this fill, before fees */
  readonly realizedPnl: number;
  /** Signed position after the fill */
  readonly positionAfter: number;
}

/** One round trip from flat to flat (or to a flip) */
export interface Trade {
  readonly side: 'long' | 'short';
  readonly entryTime: number;
  readonly exitTime: number;
  readonly entryPrice: number;
  readonly exitPrice: number;
  /** Largest absolute size held */
  readonly maxQuantity: number;
  readonly realizedPnl: number;
  readonly fees: number;
  /** Funding paid while open (negative: received) */
  readonly funding: number;
  /** realizedPnl − fees − funding */
  readonly netPnl: number;
  readonly liquidated: boolean;
}
