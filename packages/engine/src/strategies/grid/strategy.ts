import type { Fill } from '../../broker/orders';
import type { PlannedOrder } from '../../strategy/order-plan';
import { strategyType } from '../../strategy/registry';
import {
  type BacktestFastPath,
  INTERFACE_VERSION,
  type Strategy,
  type StrategyContext,
} from '../../strategy/strategy';
import {
  closesPosition,
  type GridParams,
  GridParamsSchema,
  gridLevelProfit,
  gridLevels,
  nearestLevel,
  openingOrder,
} from './params';

/**
 * Futures grid: buy limits on the levels below the price, sell limits on the levels above. Each filled buy at level
 * k is answered by a sell at k + 1 and each filled sell at k by a buy at k − 1, so every completed pair earns one
 * grid step. Long grids first buy the position the sells above will unwind (their sells are reduce-only); short
 * grids mirror that; neutral grids start flat.
 */
class Grid implements Strategy, BacktestFastPath {
  private readonly levels: number[];
  private started = false;
  private stopped = false;

  constructor(private readonly p: GridParams) {
    this.levels = gridLevels(p);
  }

  onBar(ctx: StrategyContext): void {
    if (this.stopped || this.started) return;
    this.started = true;
    this.start(ctx, ctx.price);
    const band = this.p.stopOutsidePct;
    // The break-out is watched on the price, not at a close: it acts where the price leaves the band
    if (band > 0) ctx.watchPrice(this.p.lower * (1 - band), this.p.upper * (1 + band));
  }

  /** The price left the range by more than `stopOutsidePct`: everything closed, the grid stops */
  onPrice(ctx: StrategyContext): void {
    if (this.stopped) return;
    this.stopped = true;
    const broker = ctx.broker;
    broker.cancelAll();
    const pos = broker.positionQty;
    if (pos !== 0)
      broker.submit({
        side: pos > 0 ? 'sell' : 'buy',
        type: 'market',
        quantity: Math.abs(pos),
        reduceOnly: true,
        tag: 'breakout',
      });
  }

  /** After the start the grid only reacts to fills and to the break-out band, which wake it themselves */
  idleUntil(): number {
    return Number.POSITIVE_INFINITY;
  }

  private start(ctx: StrategyContext, price: number): void {
    const broker = ctx.broker;
    if (broker.leverage !== this.p.leverage) broker.setLeverage(this.p.leverage);
    const q = broker.roundQty(this.p.quantityPerGrid);
    // The level closest to the price stays empty, as on the exchange's grid bots
    const nearest = nearestLevel(this.levels, price);
    // The position the closing side unwinds goes first: an order closing a position that is not there yet is
    // refused (a reduce-only one in one-way mode, any closing one in hedge mode)
    const dir = this.p.direction;
    const opening = openingOrder(dir, this.levels.length, nearest);
    if (opening)
      broker.submit({ side: opening.side, type: 'market', quantity: q * opening.levels, tag: 'init' });
    for (let k = 0; k < this.levels.length; k++) {
      if (k !== nearest) this.place(ctx, k, k > nearest ? 'sell' : 'buy');
    }
  }

  private place(ctx: StrategyContext, k: number, side: 'buy' | 'sell'): void {
    const broker = ctx.broker;
    const dir = this.p.direction;
    const reduceOnly = closesPosition(dir, side);
    broker.submit({
      side,
      type: 'limit',
      price: broker.roundPrice(this.levels[k] as number),
      quantity: broker.roundQty(this.p.quantityPerGrid),
      reduceOnly,
      tag: String(k),
    });
  }

  onFill(fill: Fill, ctx: StrategyContext): void {
    if (this.stopped || fill.tag === 'init' || fill.tag === 'breakout' || fill.liquidity === 'liquidation') {
      if (fill.liquidity === 'liquidation') this.stopped = true;
      return;
    }
    const k = Number(fill.tag);
    if (!Number.isInteger(k)) return;
    if (fill.side === 'buy' && k + 1 < this.levels.length) this.place(ctx, k + 1, 'sell');
    if (fill.side === 'sell' && k - 1 >= 0) this.place(ctx, k - 1, 'buy');
  }
}

/**
 * The orders a grid started at `price` sends (as `Grid.start` lays them): a long grid's buy of the position its
 * sells unwind (a short's sell), a limit on every level but the nearest, and the counter-order that level gets
 * after a fill next to it
 */
function gridPlan(p: GridParams, price: number): PlannedOrder[] {
  const levels = gridLevels(p);
  const nearest = nearestLevel(levels, price);
  const q = p.quantityPerGrid;
  const sizedBy = (perUnit: number) => ({ param: 'quantityPerGrid', value: q, perUnit });
  const plan: PlannedOrder[] = [];
  const opening = openingOrder(p.direction, levels.length, nearest);
  if (opening)
    plan.push({
      what: `the opening ${opening.side}`,
      side: opening.side,
      price,
      quantity: q * opening.levels,
      reduceOnly: false,
      market: true,
      sizedBy: sizedBy(1 / opening.levels),
    });
  for (const [k, level] of levels.entries()) {
    const side = k > nearest ? 'sell' : k < nearest ? 'buy' : p.direction === 'short' ? 'buy' : 'sell';
    plan.push({
      what: `the level at ${Number(level.toPrecision(10))}`,
      side,
      price: level,
      quantity: q,
      reduceOnly: closesPosition(p.direction, side),
      sizedBy: sizedBy(1),
      ...(k === nearest ? { later: true } : {}),
    });
  }
  return plan;
}

export const gridStrategy = strategyType({
  id: 'grid',
  name: 'Futures grid',
  description: 'Buys low and sells high across a price range in fixed steps (long, short or neutral)',
  interfaceVersion: INTERFACE_VERSION,
  params: GridParamsSchema,
  warmupBars: () => 1,
  positionSide: (p) => (p.direction === 'neutral' ? 'both' : p.direction),
  plannedOrders: (p, { price }) => gridPlan(p, price),
  levelProfit: (p, at) => gridLevelProfit(p, at),
  create: (p) => new Grid(p),
});
