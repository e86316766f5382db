/** Query keys of the backtest API, broad to narrow: invalidating `all` refreshes every backtest query */
export const backtestKeys = {
  all: ['backtests'] as const,
  strategies: () => [...backtestKeys.all, 'strategies'] as const,
  list: () => [...backtestKeys.all, 'list'] as const,
  detail: (id: string) => [...backtestKeys.all, 'detail', id] as const,
  candles: (id: string) => [...backtestKeys.all, 'candles', id] as const,
};
