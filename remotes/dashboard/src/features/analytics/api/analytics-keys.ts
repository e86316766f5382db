import type { AnalyticsRange } from '../lib/range';

/** Query keys of /analytics, under `['dashboard', …]` (account notices invalidate that prefix, so a fill refetches) */
export const analyticsKeys = {
  all: ['dashboard', 'analytics'] as const,
  range: (range: AnalyticsRange) => [...analyticsKeys.all, range] as const,
};
