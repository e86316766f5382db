/**
 * Query keys of the risk API, broad to narrow. Under `['dashboard', …]`: the runtime refetches them on every
 * order, position and balance notice, so the figures follow the account (see shared-runtime's LIVE_QUERY_KEYS)
 */
export const riskKeys = {
  all: ['dashboard', 'risk'] as const,
  overview: () => [...riskKeys.all, 'overview'] as const,
  limits: () => [...riskKeys.all, 'limits'] as const,
  events: () => [...riskKeys.all, 'events'] as const,
};
