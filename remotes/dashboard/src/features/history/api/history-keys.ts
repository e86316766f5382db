import type { HistoryFilter } from '../lib/history-filter';

/**
 * Query keys of the history page, under `['dashboard', …]`: account notices on the live socket invalidate that
 * prefix, so a new fill or order shows without a reload
 */
export const historyKeys = {
  all: ['dashboard', 'history'] as const,
  symbols: () => [...historyKeys.all, 'symbols'] as const,
  list: (tab: 'trades' | 'orders' | 'income', filter: HistoryFilter) =>
    [...historyKeys.all, tab, filter] as const,
};
