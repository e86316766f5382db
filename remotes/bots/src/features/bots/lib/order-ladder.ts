import type { BotOrder } from '@kestrel/contracts/bots';
import { stepDecimals } from '@kestrel/ui';

/** One row of a bot's open-orders table: an order, or the line where the price stands among them */
export type LadderRow = { kind: 'order'; order: BotOrder } | { kind: 'mark'; price: number };

/** The price an order waits at: its limit price, else its trigger (a stop), else null (a market order) */
export function restingPrice(o: BotOrder): number | null {
  if (o.price !== null) return Number(o.price);
  return o.triggerPrice ? Number(o.triggerPrice) : null;
}

/** Where an order stands on the ladder: its resting price; a market order above all */
const ladderPrice = (o: BotOrder): number => restingPrice(o) ?? Number.POSITIVE_INFINITY;

/**
 * The bot's orders as a trader reads a ladder: highest price first (a grid's sells above, its buys below), a stop
 * at its trigger, orders without a price (market) on top, orders at one price in the order they were placed; with the mark
 * known, its line between the orders above it and those at or below it, so the nearest levels on both sides are
 * the ones next to it. The server lists orders in the order they were placed
 */
export function ladder(orders: readonly BotOrder[], mark: number | null): LadderRow[] {
  const price = ladderPrice;
  const sorted = [...orders].sort((a, b) =>
    price(a) === price(b) ? a.time - b.time : price(a) > price(b) ? -1 : 1,
  );
  const rows: LadderRow[] = sorted.map((order) => ({ kind: 'order', order }));
  if (mark === null || sorted.length === 0) return rows;
  const below = sorted.findIndex((o) => price(o) <= mark);
  rows.splice(below === -1 ? rows.length : below, 0, { kind: 'mark', price: mark });
  return rows;
}

const STATUS_WORDS: Record<string, string> = {
  NEW: 'Open',
  PARTIALLY_FILLED: 'Partly filled',
  FILLED: 'Filled',
  CANCELED: 'Canceled',
  EXPIRED: 'Expired',
  REJECTED: 'Refused',
  // Live: sent, the exchange's answer not in yet
  PENDING: 'Sending',
  // Paper: a market order submitted at a bar's close fills at the next bar's open
  NEXT_OPEN: 'Fills at the next open',
  UNKNOWN: 'Unknown: being checked',
};

/** An order's status in words ("Open" for the exchange's NEW); an unlisted one as the exchange wrote it */
export function orderStatusWords(status: string): string {
  return STATUS_WORDS[status] ?? status;
}

/** An order type in words: "LIMIT" → "Limit", "STOP_MARKET" → "Stop market" */
export function orderTypeWords(type: string): string {
  const words = type.toLowerCase().replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Decimals of the table's price and quantity columns: the most any of its figures has, so the column's digits line
 * up ("60,578.0" over "60,283.8", not "60,578"); the servers write a price without its trailing zeros. The mark
 * counts with at most 2 more: the exchange's mark price carries 8 decimals past the symbol's tick
 */
export function ladderDecimals(
  orders: readonly BotOrder[],
  mark: number | null,
): { price: number; quantity: number } {
  const most = (texts: readonly string[]) => Math.min(8, Math.max(0, ...texts.map((t) => stepDecimals(t))));
  const prices = most(orders.flatMap((o) => [o.price ?? o.triggerPrice ?? ''].filter((p) => p !== '')));
  const markDecimals = mark === null ? 0 : Math.min(Math.max(prices, 2), most([String(mark)]));
  return {
    price: Math.max(prices, markDecimals),
    quantity: most(orders.map((o) => o.quantity)),
  };
}
