/** Query keys of the account cards, under `['dashboard', …]` (account notices invalidate that prefix) */
export const overviewKeys = {
  all: ['dashboard'] as const,
  overview: () => [...overviewKeys.all, 'overview'] as const,
  /** The same key as the bots remote's summary: one cache entry for one endpoint */
  bots: () => [...overviewKeys.all, 'bots'] as const,
};
