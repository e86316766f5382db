import type { FuturesOrder, FuturesPosition } from '@kestrel/contracts';
import { formatPrice } from '@kestrel/ui';
import { positionDirection } from './describe-action';
import { protectionOf } from './protection';

/** The two protections drawn as lines at their trigger: a trailing stop trails the mark, it has no line to drag */
export type MovableProtectionKind = 'takeProfit' | 'stopLoss';

/** A take-profit or stop-loss the chart may let the trader drag: its order, the position it protects, its grip */
export interface MovableProtection {
  kind: MovableProtectionKind;
  position: FuturesPosition;
  order: FuturesOrder;
  /** What its grip on the chart reads: "SL", or in hedge mode with both sides open "SL long" */
  label: string;
}

const SHORT: Record<MovableProtectionKind, string> = { takeProfit: 'TP', stopLoss: 'SL' };
const WORDS: Record<MovableProtectionKind, string> = { takeProfit: 'take-profit', stopLoss: 'stop-loss' };

/**
 * The symbol's movable protections by order id: each open position's take-profit and stop-loss among the open
 * orders (`protectionOf`, the TP/SL dialog's own reading)
 */
export function movableProtections(
  positions: readonly FuturesPosition[],
  orders: readonly FuturesOrder[],
  symbol: string,
): ReadonlyMap<string, MovableProtection> {
  const open = positions.filter((p) => p.symbol === symbol && Number(p.amount) !== 0);
  const byOrder = new Map<string, MovableProtection>();
  for (const position of open) {
    const found = protectionOf(position, orders);
    // Both sides of a hedged symbol can hold a stop-loss: the grip says whose
    const side = open.length > 1 ? ` ${positionDirection(position)}` : '';
    for (const kind of ['takeProfit', 'stopLoss'] as const) {
      const order = found[kind];
      if (order) byOrder.set(order.orderId, { kind, position, order, label: `${SHORT[kind]}${side}` });
    }
  }
  return byOrder;
}

/**
 * What confirming a dragged line does: "Move the BTCUSDT long's stop-loss from 58,000.0 to 59,500.0: it closes the
 * whole position at market when the mark price reaches it"
 */
export function describeMove(
  position: FuturesPosition,
  kind: MovableProtectionKind,
  from: string,
  to: string,
  pricePrecision: number | undefined,
): string {
  const price = (v: string) => formatPrice(Number(v), { precision: pricePrecision });
  return (
    `Move the ${position.symbol} ${positionDirection(position)}'s ${WORDS[kind]} from ${price(from)} to ${price(to)}: ` +
    'it closes the whole position at market when the mark price reaches it'
  );
}
