/** Query keys of the account cards, under `['dashboard', …]` (account notices invalidate that prefix) */
export const overviewKeys = {
  all: ['dashboard'] as const,
  overview: () => [...overviewKeys.all, 'overview'] as const,
};
