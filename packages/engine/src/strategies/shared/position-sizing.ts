import type { OrderPort } from '../../broker/order-port';
import type { PlanMarket, PlannedOrder } from '../../strategy/order-plan';

/** Quantity whose margin is `fraction` of equity at the broker's leverage, rounded down to the step */
export function qtyForEquityFraction(broker: OrderPort, price: number, fraction: number): number {
  return broker.roundQty((broker.equityAt(price) * fraction * broker.leverage) / price);
}

/**
 * The entry of a strategy that sizes it with `qtyForEquityFraction`, at the start's equity (the budget): a buy
 * unless it only goes short. Its size follows the budget, so that is the parameter to raise
 */
export function entryPlan(side: string, fraction: number, market: PlanMarket): PlannedOrder[] {
  const { price, budget, leverage } = market;
  return [
    {
      what: 'its entry',
      side: side === 'short' ? 'sell' : 'buy',
      price,
      quantity: (budget * fraction * leverage) / price,
      reduceOnly: false,
      market: true,
      sizedBy: { param: 'budget', value: budget, perUnit: price / (fraction * leverage) },
    },
  ];
}
