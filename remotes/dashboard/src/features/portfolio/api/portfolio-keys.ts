/**
 * Query keys of the account's figures, broad to narrow, under the prefixes the runtime's live data refetches on
 * order, position and balance notices (shared-runtime `LIVE_QUERY_KEYS`): `['futures', …]` for `/api/futures/*`,
 * `['dashboard', …]` for `/api/v1/dashboard/*` (trading rules: `src/api/get-symbol-info.ts`)
 */
export const portfolioKeys = {
  all: ['futures'] as const,
  account: () => [...portfolioKeys.all, 'account'] as const,
  portfolio: () => ['dashboard', 'portfolio'] as const,
};
