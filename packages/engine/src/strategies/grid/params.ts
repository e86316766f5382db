import { z } from 'zod';
import { roundToStep } from '../../math/rounding';
import type { LevelProfit, RoundTripAt } from '../../strategy/order-plan';

/** Futures grid parameters (Binance futures grid bot semantics) */
export const GridParamsSchema = z
  .object({
    lower: z.number().positive().default(45_000).describe('Lowest grid price'),
    upper: z.number().positive().default(55_000).describe('Highest grid price'),
    gridCount: z.number().int().min(2).max(300).default(20).describe('Number of grid intervals'),
    spacing: z.enum(['arithmetic', 'geometric']).default('arithmetic'),
    direction: z.enum(['long', 'short', 'neutral']).default('neutral'),
    /** Base quantity per grid order */
    quantityPerGrid: z.number().positive().default(0.01),
    leverage: z.number().int().min(1).max(125).default(5),
    /** Close everything and stop when the price leaves the range by this fraction (0 = never), at that price */
    stopOutsidePct: z.number().min(0).max(1).default(0).meta({ unit: 'fraction' }),
  })
  .refine((p) => p.lower < p.upper, { message: 'lower must be below upper', path: ['lower'] });

export type GridParams = z.output<typeof GridParamsSchema>;

/** Grid prices from lower to upper inclusive (gridCount + 1 levels) */
export function gridLevels(p: Pick<GridParams, 'lower' | 'upper' | 'gridCount' | 'spacing'>): number[] {
  const levels: number[] = [];
  const ratio = (p.upper / p.lower) ** (1 / p.gridCount);
  for (let k = 0; k <= p.gridCount; k++) {
    levels.push(
      p.spacing === 'arithmetic' ? p.lower + ((p.upper - p.lower) * k) / p.gridCount : p.lower * ratio ** k,
    );
  }
  return levels;
}

/** The level nearest to `price`: the grid starts there with no order (the first of two equally near) */
export function nearestLevel(levels: readonly number[], price: number): number {
  let nearest = 0;
  for (let k = 1; k < levels.length; k++) {
    if (Math.abs((levels[k] as number) - price) < Math.abs((levels[nearest] as number) - price)) nearest = k;
  }
  return nearest;
}

/**
 * The order a one-sided grid opens with, at `nearest` (the level it starts on): a long grid buys the position its
 * sells above will unwind, a short one sells what its buys below will; in levels' worth of `quantityPerGrid`.
 * None for a neutral grid or one with no level on the closing side
 */
export function openingOrder(
  direction: GridParams['direction'],
  levelCount: number,
  nearest: number,
): { side: 'buy' | 'sell'; levels: number } | undefined {
  const above = levelCount - 1 - nearest;
  if (direction === 'long' && above > 0) return { side: 'buy', levels: above };
  if (direction === 'short' && nearest > 0) return { side: 'sell', levels: nearest };
  return undefined;
}

/** A one-sided grid's orders on its closing side (a long grid's sells, a short's buys) only reduce its position */
export const closesPosition = (direction: GridParams['direction'], side: 'buy' | 'sell') =>
  (direction === 'long' && side === 'sell') || (direction === 'short' && side === 'buy');

/**
 * One level's round trip: `quantityPerGrid` (rounded down to the step, as the exchange takes it) bought at a level
 * and sold at the next one up (or sold and bought back), less the maker fee on both fills. Geometric levels widen
 * upward, so the least and the most a round trip earns
 */
export function gridLevelProfit(
  p: Pick<GridParams, 'lower' | 'upper' | 'gridCount' | 'spacing' | 'quantityPerGrid'>,
  { fees, stepSize }: RoundTripAt,
): LevelProfit {
  const levels = gridLevels(p);
  const q = stepSize > 0 ? roundToStep(p.quantityPerGrid, stepSize, 'down') : p.quantityPerGrid;
  let minNet = Number.POSITIVE_INFINITY;
  let maxNet = Number.NEGATIVE_INFINITY;
  let minNetPct = Number.POSITIVE_INFINITY;
  let maxNetPct = Number.NEGATIVE_INFINITY;
  for (let k = 1; k < levels.length; k++) {
    const low = levels[k - 1] as number;
    const high = levels[k] as number;
    const net = q * (high - low) - q * (low + high) * fees.maker;
    const pct = net / (q * low);
    minNet = Math.min(minNet, net);
    maxNet = Math.max(maxNet, net);
    minNetPct = Math.min(minNetPct, pct);
    maxNetPct = Math.max(maxNetPct, pct);
  }
  return { minNet, maxNet, minNetPct, maxNetPct };
}
