/**
 * Query keys of the account's figures, broad to narrow, under the `['futures']` prefix that the live socket's
 * balance and position notices and every order sent from this page invalidate
 */
export const portfolioKeys = {
  all: ['futures'] as const,
  account: () => [...portfolioKeys.all, 'account'] as const,
  portfolio: () => [...portfolioKeys.all, 'portfolio'] as const,
  symbolInfo: (symbol: string) => [...portfolioKeys.all, 'symbols', symbol] as const,
};
