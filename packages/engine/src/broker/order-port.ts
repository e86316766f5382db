import type { OrderRequest, OrderView } from './orders';

/**
 * What a strategy may do with an account. The engine's simulated broker implements it for backtests and paper
 * runs; a bot runtime in the server (not built yet) is to implement it over the exchange adapter, so strategy code
 * is the same in both.
 */
export interface OrderPort {
  /** Signed position amount (positive long, negative short, 0 flat) */
  readonly positionQty: number;
  /** Average entry price of the position, 0 when flat */
  readonly entryPrice: number;
  /** Liquidation price of the position, NaN when flat, 0 when it cannot be liquidated */
  readonly liquidationPrice: number;
  readonly walletBalance: number;
  readonly leverage: number;
  /** Orders submitted this bar, not yet accepted by the exchange */
  readonly inFlightOrders: readonly OrderView[];
  /** Orders resting on the exchange */
  readonly openOrders: readonly OrderView[];
  /** Changes leverage (POST /fapi/v1/leverage); allowed while flat */
  setLeverage(leverage: number): void;
  /** Quantity rounded down to the symbol's step size */
  roundQty(qty: number): number;
  /** Price rounded to the symbol's tick size */
  roundPrice(price: number): number;
  /** Queues an order; it reaches the exchange after this bar closes */
  submit(request: OrderRequest): OrderView;
  /** Cancels an in-flight or open order; false if it is already closed or unknown */
  cancel(orderId: number): boolean;
  cancelAll(): void;
  /** Account equity at `price` (wallet + unrealized PnL) */
  equityAt(price: number): number;
}
