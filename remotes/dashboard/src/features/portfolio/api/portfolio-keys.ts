/**
 * Query keys of the account's figures, under the prefix the runtime's live data refetches on order, position and
 * balance notices (shared-runtime `LIVE_QUERY_KEYS`): `['dashboard', …]` for `/api/v1/dashboard/*` (trading rules:
 * `src/api/get-symbol-info.ts`)
 */
export const portfolioKeys = {
  portfolio: () => ['dashboard', 'portfolio'] as const,
};
