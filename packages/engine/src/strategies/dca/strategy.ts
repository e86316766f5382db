import type { Fill } from '../../broker/orders';
import type { PlannedOrder } from '../../strategy/order-plan';
import { strategyType } from '../../strategy/registry';
import {
  type BacktestFastPath,
  INTERFACE_VERSION,
  type Strategy,
  type StrategyContext,
} from '../../strategy/strategy';
import { type DcaParams, DcaParamsSchema, safetyOrderPlan, safetyOrderPrice } from './params';

/**
 * Opens a base order at market, lays safety limit orders at growing distances against the position, and keeps one
 * reduce-only take-profit (a limit, or a trailing stop armed at the target) and optionally a stop at the average
 * entry ± the target. When the position closes the
 * remaining safety orders are cancelled and a new cycle starts on the next bar.
 */
class Dca implements Strategy, BacktestFastPath {
  private readonly plan: { deviation: number; size: number }[];
  private inCycle = false;
  private exitIds: number[] = [];

  constructor(private readonly p: DcaParams) {
    this.plan = safetyOrderPlan(p);
  }

  onBar(ctx: StrategyContext): void {
    const broker = ctx.broker;
    if (this.inCycle) return;
    if (broker.leverage !== this.p.leverage && broker.positionQty === 0) broker.setLeverage(this.p.leverage);
    this.inCycle = true;
    const qty = broker.roundQty(this.p.baseOrderSize / ctx.price);
    broker.submit({
      side: this.p.side === 'long' ? 'buy' : 'sell',
      type: 'market',
      quantity: qty,
      tag: 'base',
    });
  }

  /** During a cycle only fills matter; between cycles the next bar starts one */
  idleUntil(index: number): number {
    return this.inCycle ? Number.POSITIVE_INFINITY : index + 1;
  }

  onFill(fill: Fill, ctx: StrategyContext): void {
    const broker = ctx.broker;
    const long = this.p.side === 'long';
    if (fill.positionAfter === 0) {
      // Take-profit, stop or liquidation: end the cycle
      broker.cancelAll();
      this.exitIds = [];
      this.inCycle = false;
      return;
    }
    if (fill.tag === 'base') {
      for (const [k, so] of this.plan.entries()) {
        const price = broker.roundPrice(safetyOrderPrice(fill.price, so.deviation, long));
        const quantity = broker.roundQty(so.size / price);
        broker.submit({ side: long ? 'buy' : 'sell', type: 'limit', price, quantity, tag: `so${k}` });
      }
    }
    if (fill.tag === 'base' || fill.tag.startsWith('so')) this.replaceExits(ctx);
  }

  /** Re-prices take-profit and stop around the new average entry */
  private replaceExits(ctx: StrategyContext): void {
    const broker = ctx.broker;
    const long = this.p.side === 'long';
    for (const id of this.exitIds) broker.cancel(id);
    const entry = broker.entryPrice;
    const size = Math.abs(broker.positionQty);
    const exitSide = long ? 'sell' : 'buy';
    const target = broker.roundPrice(entry * (long ? 1 + this.p.takeProfit : 1 - this.p.takeProfit));
    const trailing = this.p.trailingDeviation;
    // A trailing take-profit is the exchange's trailing stop, armed at the target: it follows the price there
    const tp = broker.submit(
      trailing > 0
        ? {
            side: exitSide,
            type: 'trailing-stop-market',
            activationPrice: target,
            callbackRate: trailing,
            quantity: size,
            reduceOnly: true,
            tag: 'tp',
          }
        : { side: exitSide, type: 'limit', price: target, quantity: size, reduceOnly: true, tag: 'tp' },
    );
    this.exitIds = [tp.id];
    if (this.p.stopLoss > 0) {
      const sl = broker.submit({
        side: exitSide,
        type: 'stop-market',
        triggerPrice: broker.roundPrice(entry * (long ? 1 - this.p.stopLoss : 1 + this.p.stopLoss)),
        closePosition: true,
        tag: 'sl',
      });
      this.exitIds.push(sl.id);
    }
  }
}

/**
 * The orders of a DCA cycle started at `price` (as `Dca` sends them): the base order at market, then every safety
 * order at its distance. The take-profit closes what they bought: it needs no check of its own
 */
function dcaPlan(p: DcaParams, price: number): PlannedOrder[] {
  const long = p.side === 'long';
  const side = long ? 'buy' : 'sell';
  const plan: PlannedOrder[] = [
    {
      what: 'the base order',
      side,
      price,
      quantity: p.baseOrderSize / price,
      reduceOnly: false,
      market: true,
      sizedBy: { param: 'baseOrderSize', value: p.baseOrderSize, perUnit: price },
    },
  ];
  for (const [k, so] of safetyOrderPlan(p).entries()) {
    const at = safetyOrderPrice(price, so.deviation, long);
    plan.push({
      what: `safety order ${k + 1}`,
      side,
      price: at,
      quantity: so.size / at,
      reduceOnly: false,
      // Its size is the first safety order's times the volume scale to the k-th
      sizedBy: {
        param: 'safetyOrderSize',
        value: p.safetyOrderSize,
        perUnit: (at * p.safetyOrderSize) / so.size,
      },
    });
  }
  return plan;
}

export const dcaStrategy = strategyType({
  id: 'dca',
  name: 'DCA with safety orders',
  description:
    'Averages into a position with scaled safety orders and exits at a take-profit from the average entry',
  interfaceVersion: INTERFACE_VERSION,
  params: DcaParamsSchema,
  warmupBars: () => 1,
  positionSide: (p) => p.side,
  plannedOrders: (p, { price }) => dcaPlan(p, price),
  create: (p) => new Dca(p),
});
