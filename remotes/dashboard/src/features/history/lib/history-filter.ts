import { INCOME_SORT_FIELDS, ORDER_SORT_FIELDS, TRADE_SORT_FIELDS } from '@kestrel/contracts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The range presets of the filter bar; "custom" reads two dates */
export const RANGE_PRESETS = [
  { id: '24h', label: '24 h', ms: DAY_MS },
  { id: '7d', label: '7 d', ms: 7 * DAY_MS },
  { id: '30d', label: '30 d', ms: 30 * DAY_MS },
  { id: '90d', label: '90 d', ms: 90 * DAY_MS },
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number]['id'] | 'custom';

/** Rows asked per request as the table scrolls (the server allows 500) */
export const HISTORY_PAGE_SIZE = 200;

/** The tabs' shared filter; `from`/`to` are fixed when the range is picked, `to` absent means "up to now" */
export interface HistoryFilter {
  from: number;
  to?: number;
  symbol?: string;
  side?: 'BUY' | 'SELL';
  /** Orders: order type; income: income type; trades: unused */
  type?: string;
  /** Orders only */
  status?: string;
  sort: string;
  order: 'asc' | 'desc';
}

/** Column ids the server sorts on, per tab (other columns' headers do not sort) */
export const SORTABLE: Record<'trades' | 'orders' | 'income', readonly string[]> = {
  trades: TRADE_SORT_FIELDS,
  orders: ORDER_SORT_FIELDS,
  income: INCOME_SORT_FIELDS,
};

/** `from` of a preset, counted back from `now` */
export function presetFrom(preset: Exclude<RangePreset, 'custom'>, now: number): number {
  const found = RANGE_PRESETS.find((p) => p.id === preset) ?? RANGE_PRESETS[2];
  return now - found.ms;
}

/** A custom range of whole UTC days, "2026-01-01" to "2026-01-31" inclusive; undefined when a date is missing or reversed */
export function customRange(fromDay: string, toDay: string): { from: number; to: number } | undefined {
  const from = Date.parse(`${fromDay}T00:00:00Z`);
  const to = Date.parse(`${toDay}T00:00:00Z`);
  if (!Number.isFinite(from) || !Number.isFinite(to) || from > to) return undefined;
  return { from, to: to + DAY_MS - 1 };
}

/** The query string of a filter: only what is set */
export function filterQuery(
  filter: HistoryFilter,
  tab: 'trades' | 'orders' | 'income',
): Record<string, string | number | undefined> {
  return {
    from: filter.from,
    to: filter.to,
    symbol: filter.symbol,
    side: tab === 'income' ? undefined : filter.side,
    type: tab === 'trades' ? undefined : filter.type,
    status: tab === 'orders' ? filter.status : undefined,
    sort: SORTABLE[tab].includes(filter.sort) ? filter.sort : 'time',
    order: filter.order,
  };
}

/** Decimals a value was written with ("0.0100" → 4): the exchange writes prices and sizes at the symbol's precision */
export function decimalsOf(value: string): number {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}
