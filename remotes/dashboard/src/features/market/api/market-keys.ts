/**
 * Query keys of market data, broad to narrow: invalidating `all` refreshes every market query of the page (the
 * runtime does so when the live socket comes back, and polls them while it is down)
 */
export const marketKeys = {
  all: ['market'] as const,
  tickers: (symbols: readonly string[]) => [...marketKeys.all, 'tickers', [...symbols]] as const,
};
