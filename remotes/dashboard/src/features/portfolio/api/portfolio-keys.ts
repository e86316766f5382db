/**
 * Query keys of the account's figures, broad to narrow, under the prefixes the runtime's live data refetches on
 * order, position and balance notices (shared-runtime `LIVE_QUERY_KEYS`): `['futures', …]` for `/api/futures/*`,
 * `['dashboard', …]` for `/api/v1/dashboard/*`; `['futures', 'symbols', …]` (trading rules) the socket leaves alone
 */
export const portfolioKeys = {
  all: ['futures'] as const,
  account: () => [...portfolioKeys.all, 'account'] as const,
  symbolInfo: (symbol: string) => [...portfolioKeys.all, 'symbols', symbol] as const,
  portfolio: () => ['dashboard', 'portfolio'] as const,
};
