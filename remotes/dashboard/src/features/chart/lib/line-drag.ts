import { stepDecimals } from '@kestrel/ui';

/** The lines a trader may drag: a position's take-profit and stop-loss (close-position orders at a trigger) */
export type MovableKind = 'takeProfit' | 'stopLoss';

/** What the chart needs of a movable line: which of the two it is, and what its grip reads ("SL", "SL long") */
export interface MovableLine {
  kind: MovableKind;
  label: string;
}

/**
 * A price from the chart (where the pointer is) on the symbol's tick: the nearest multiple of the tick, written
 * with the tick's decimals as the exchange takes it ("59500.0"), and never below one tick. Undefined off the scale
 */
export function roundToTick(price: number | null, tickSize: string): string | undefined {
  const tick = Number(tickSize);
  if (price === null || !Number.isFinite(price) || !(tick > 0)) return undefined;
  const ticks = Math.max(1, Math.round(price / tick));
  return (ticks * tick).toFixed(stepDecimals(tickSize));
}

/** How far from a line a press still takes it, in CSS px: a finger covers more than a mouse pointer */
export function grabTolerance(pointerType: string): number {
  return pointerType === 'mouse' ? 6 : 14;
}

/**
 * Which line a press at `y` grabs: the nearest one within `tolerance` px (lines off the chart have no y), else
 * none. Its index in `lines`
 */
export function grabbedLine(
  lines: readonly { y: number | null }[],
  y: number,
  tolerance: number,
): number | undefined {
  let best: number | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  lines.forEach((line, i) => {
    if (line.y === null) return;
    const distance = Math.abs(line.y - y);
    if (distance <= tolerance && distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  });
  return best;
}

/** A dropped line held at its new price: while confirmed, or once sent (`until`: when it was on the exchange) */
export interface HeldMove {
  orderId: string;
  price: number;
  until?: number;
}

/** The move to draw: a sent one only while the open orders shown were fetched before it was on the exchange */
export function shownMove(held: HeldMove | null, ordersUpdatedAt: number): HeldMove | null {
  if (!held) return null;
  return held.until === undefined || ordersUpdatedAt <= held.until ? held : null;
}
