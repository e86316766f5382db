import type { BacktestTrade } from '@kestrel/contracts/backtest';

/** The trade table's columns, in the order they are shown */
export const TRADE_COLUMNS = [
  'id',
  'side',
  'entryTime',
  'entryPrice',
  'exitTime',
  'exitPrice',
  'quantity',
  'fees',
  'funding',
  'pnl',
  'exitReason',
] as const satisfies readonly (keyof BacktestTrade)[];
export type TradeColumn = (typeof TRADE_COLUMNS)[number];

export type SortDirection = 'ascending' | 'descending';
export interface TradeSort {
  column: TradeColumn;
  direction: SortDirection;
}

/** Chronological, as the run produced them */
export const DEFAULT_TRADE_SORT: TradeSort = { column: 'entryTime', direction: 'ascending' };

/** How the side and the exit reason read in the table: they sort alphabetically by these words */
export const SIDE_TEXT: Record<BacktestTrade['side'], string> = { long: 'Long', short: 'Short' };
export const EXIT_REASON_TEXT: Record<BacktestTrade['exitReason'], string> = {
  signal: 'Signal',
  'stop-loss': 'Stop loss',
  'take-profit': 'Take profit',
  'trailing-stop': 'Trailing stop',
  liquidation: 'Liquidation',
};

/** Each word's place in alphabetical order, worked out once: a rank compares faster than a string, 10 000 rows deep */
function alphabeticalRanks<K extends string>(text: Record<K, string>): Record<K, number> {
  const keys = Object.keys(text) as K[];
  keys.sort((a, b) => text[a].localeCompare(text[b], 'en'));
  return Object.fromEntries(keys.map((key, rank) => [key, rank])) as Record<K, number>;
}
const SIDE_RANK = alphabeticalRanks(SIDE_TEXT);
const EXIT_REASON_RANK = alphabeticalRanks(EXIT_REASON_TEXT);

/** The number a column sorts by: figures and times as they are, words by their alphabetical rank */
function sortKey(trade: BacktestTrade, column: TradeColumn): number {
  if (column === 'side') return SIDE_RANK[trade.side];
  if (column === 'exitReason') return EXIT_REASON_RANK[trade.exitReason];
  return trade[column];
}

/**
 * The trades in the given order, as a new array (the input is the query cache's). Rows that tie keep the default
 * order (entry time, then #) in either direction, so a trader who sorts by side still reads each side
 * chronologically, and the same click always gives the same rows.
 */
export function sortTrades(
  trades: readonly BacktestTrade[],
  { column, direction }: TradeSort,
): BacktestTrade[] {
  const sign = direction === 'ascending' ? 1 : -1;
  // Keys read once per row rather than twice per comparison (10 000 rows: ~140 000 comparisons); indexes sort
  const keys = new Float64Array(trades.length);
  const entries = new Float64Array(trades.length);
  const ids = new Float64Array(trades.length);
  const order = new Uint32Array(trades.length);
  for (let i = 0; i < trades.length; i++) {
    const trade = trades[i] as BacktestTrade;
    keys[i] = sortKey(trade, column);
    entries[i] = trade.entryTime;
    ids[i] = trade.id;
    order[i] = i;
  }
  const at = (values: Float64Array, i: number) => values[i] as number;
  order.sort(
    (a, b) =>
      sign * (at(keys, a) - at(keys, b)) ||
      at(entries, a) - at(entries, b) ||
      at(ids, a) - at(ids, b) ||
      a - b,
  );
  return Array.from(order, (i) => trades[i] as BacktestTrade);
}

/** A header click: the sorted column flips its direction, another column starts ascending */
export function nextTradeSort(current: TradeSort, column: TradeColumn): TradeSort {
  if (current.column !== column) return { column, direction: 'ascending' };
  return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}
