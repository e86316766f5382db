import type { OrderPort } from '../../broker/order-port';

/** Quantity whose margin is `fraction` of equity at the broker's leverage, rounded down to the step */
export function qtyForEquityFraction(broker: OrderPort, price: number, fraction: number): number {
  return broker.roundQty((broker.equityAt(price) * fraction * broker.leverage) / price);
}
