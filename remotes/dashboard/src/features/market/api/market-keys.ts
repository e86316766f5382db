/** Query keys of market data, broad to narrow: invalidating `all` refreshes every market query of the page */
export const marketKeys = {
  all: ['market'] as const,
  tickers: (symbols: readonly string[]) => [...marketKeys.all, 'tickers', [...symbols]] as const,
  symbolInfo: (symbol: string) => [...marketKeys.all, 'symbol-info', symbol] as const,
};
