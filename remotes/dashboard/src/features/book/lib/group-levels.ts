import { fractionDigits, fromUnits, isDecimal, toUnits, trimZeros } from './decimal';

/** One price level as the exchange sends it: [price, quantity], decimal strings */
export type BookLevel = readonly [price: string, quantity: string];

export type BookSide = 'bid' | 'ask';

/** One bucket of a grouped side, best first */
export interface BookRow {
  /** The bucket's price at the tick's decimals ("64118.1"): the row's key and what a click hands on */
  price: string;
  /** The bucket's quantity, summed exactly, at the side's quantity decimals */
  size: string;
  /** Sum of `size` from the best bucket down to this one */
  total: string;
  /** `total` over the largest total shown (0…1): the depth bar's length */
  share: number;
}

export interface GroupedSide {
  rows: BookRow[];
  /** Decimals the quantities are written with (the most any level has): the Size and Total columns' precision */
  quantityDecimals: number;
}

export interface GroupOptions {
  /** The symbol's tick size as Binance sends it: "0.10" */
  tickSize: string;
  /** Bucket width in ticks: 1, 10, 50, 100, … */
  multiple: number;
  /** Buckets kept, best first */
  rows: number;
}

/** The bucket widths offered, in ticks */
export const GROUPING_MULTIPLES = [1, 10, 50, 100, 1000] as const;

export interface GroupingChoice {
  multiple: number;
  /** The bucket's width in price: "0.1", "1", "5", "10", "100" for a 0.10 tick */
  label: string;
}

/** The tick in integer units of its own written decimals ("0.10" → 10 units of 0.01) */
function tickOf(tickSize: string): { units: bigint; decimals: number } {
  const decimals = fractionDigits(tickSize);
  const units = isDecimal(tickSize) ? toUnits(tickSize, decimals) : 0n;
  if (units <= 0n) throw new RangeError(`Tick size must be a positive decimal, got "${tickSize}"`);
  return { units, decimals };
}

function checkMultiple(multiple: number): bigint {
  if (!Number.isSafeInteger(multiple) || multiple < 1) {
    throw new RangeError(`Grouping multiple must be a positive integer, got ${multiple}`);
  }
  return BigInt(multiple);
}

/** The grouping picker's choices: each multiple of the tick labelled by the price step it makes */
export function groupingChoices(tickSize: string): GroupingChoice[] {
  const tick = tickOf(tickSize);
  return GROUPING_MULTIPLES.map((multiple) => ({
    multiple,
    label: trimZeros(fromUnits(tick.units * BigInt(multiple), tick.decimals)),
  }));
}

function quantityDecimalsOf(levels: readonly BookLevel[]): number {
  let decimals = 0;
  for (const [, quantity] of levels) decimals = Math.max(decimals, fractionDigits(quantity));
  return decimals;
}

interface Bucket {
  price: string;
  size: bigint;
  total: bigint;
}

/**
 * Buckets of one side, best first, quantities in units of `quantityDecimals`. Levels must come best first (as the
 * exchange sends them): a bucket's levels are then adjacent and the walk stops once `rows` buckets are full
 */
function bucketsOf(
  levels: readonly BookLevel[],
  side: BookSide,
  { tickSize, multiple, rows }: GroupOptions,
  quantityDecimals: number,
): Bucket[] {
  const tick = tickOf(tickSize);
  const k = checkMultiple(multiple);
  // Prices are compared at the finer of the tick's and the levels' decimals, so an off-tick price is still
  // rounded the right way rather than cut
  let decimals = tick.decimals;
  for (const [price] of levels) decimals = Math.max(decimals, fractionDigits(price));
  const toPriceScale = 10n ** BigInt(decimals - tick.decimals);
  const step = tick.units * toPriceScale * k;
  // Bucket prices read with the tick's significant decimals: "64118.1" for a "0.10" tick, as the exchange quotes
  const shownDecimals = trimZeros(tickSize).split('.')[1]?.length ?? 0;
  const toShownScale = 10n ** BigInt(decimals - shownDecimals);

  const buckets: Bucket[] = [];
  let current: bigint | undefined;
  let total = 0n;
  for (const [price, quantity] of levels) {
    // A malformed level or one with nothing left on it (a diff's removal) adds nothing to any bucket
    if (!isDecimal(price) || !isDecimal(quantity)) continue;
    const size = toUnits(quantity, quantityDecimals);
    if (size === 0n) continue;
    const units = toUnits(price, decimals);
    // Bids round down and asks up, as on Binance: a bucket never promises a better price than its levels offer
    const bucket = side === 'bid' ? (units / step) * step : ((units + step - 1n) / step) * step;
    const last = buckets[buckets.length - 1];
    if (last && bucket === current) {
      total += size;
      last.size += size;
      last.total = total;
      continue;
    }
    if (buckets.length === rows) break;
    total += size;
    current = bucket;
    buckets.push({ price: fromUnits(bucket / toShownScale, shownDecimals), size, total });
  }
  return buckets;
}

function toRows(buckets: readonly Bucket[], quantityDecimals: number, largest: bigint): BookRow[] {
  return buckets.map((b) => ({
    price: b.price,
    size: fromUnits(b.size, quantityDecimals),
    total: fromUnits(b.total, quantityDecimals),
    share: largest > 0n ? Number(b.total) / Number(largest) : 0,
  }));
}

const lastTotal = (buckets: readonly Bucket[]) => buckets[buckets.length - 1]?.total ?? 0n;

/**
 * One side of a book merged into buckets of `multiple` ticks (bids rounded down, asks up), the best `rows` of
 * them with running totals; `share` is against this side's largest total
 */
export function groupLevels(
  levels: readonly BookLevel[],
  side: BookSide,
  options: GroupOptions,
): GroupedSide {
  const quantityDecimals = quantityDecimalsOf(levels);
  const buckets = bucketsOf(levels, side, options, quantityDecimals);
  return { rows: toRows(buckets, quantityDecimals, lastTotal(buckets)), quantityDecimals };
}

export interface GroupedBook {
  bids: BookRow[];
  asks: BookRow[];
  quantityDecimals: number;
}

/**
 * Both sides grouped as `groupLevels` does, with one quantity precision and one depth scale (the larger side's
 * total), so a thin side's bars read as thin beside a deep one
 */
export function groupBook({
  bids,
  asks,
  ...options
}: GroupOptions & { bids: readonly BookLevel[]; asks: readonly BookLevel[] }): GroupedBook {
  const quantityDecimals = Math.max(quantityDecimalsOf(bids), quantityDecimalsOf(asks));
  const bidBuckets = bucketsOf(bids, 'bid', options, quantityDecimals);
  const askBuckets = bucketsOf(asks, 'ask', options, quantityDecimals);
  const bidTotal = lastTotal(bidBuckets);
  const askTotal = lastTotal(askBuckets);
  // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max refuses
  const largest = bidTotal > askTotal ? bidTotal : askTotal;
  return {
    bids: toRows(bidBuckets, quantityDecimals, largest),
    asks: toRows(askBuckets, quantityDecimals, largest),
    quantityDecimals,
  };
}

export interface Spread {
  /** Best ask − best bid, exactly ("0.1") */
  absolute: string;
  /** Halfway between the two, exactly: one decimal more than the prices when they straddle a tick ("64118.15") */
  mid: string;
  /** The spread as a percentage of the mid: 0.0156 means 0.0156 % */
  percent: number;
}

/**
 * The spread between the best bid and the best ask; undefined while a side is empty, and for a crossed or locked
 * book (a moment out of sync, not a spread anyone could trade)
 */
export function spread(bestBid: string | undefined, bestAsk: string | undefined): Spread | undefined {
  if (bestBid === undefined || bestAsk === undefined || !isDecimal(bestBid) || !isDecimal(bestAsk)) {
    return undefined;
  }
  const decimals = Math.max(fractionDigits(bestBid), fractionDigits(bestAsk));
  const bid = toUnits(bestBid, decimals);
  const ask = toUnits(bestAsk, decimals);
  if (ask <= bid) return undefined;
  const sum = bid + ask;
  const mid = sum % 2n === 0n ? fromUnits(sum / 2n, decimals) : fromUnits(sum * 5n, decimals + 1);
  // One float division, on exact integers: (ask − bid) / ((ask + bid) / 2) × 100
  return { absolute: fromUnits(ask - bid, decimals), mid, percent: (Number(ask - bid) * 200) / Number(sum) };
}
