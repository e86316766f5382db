import type { KlineInterval } from '@kestrel/contracts';

/**
 * Query keys of the chart, broad to narrow. Candles are market data (`['market', …]`); the overlays are the
 * account's (`['futures', …]`), so an account notice invalidating `['futures']` redraws them.
 */
export const chartKeys = {
  klines: (symbol: string, interval: KlineInterval, limit: number) =>
    ['market', 'klines', symbol, interval, limit] as const,
  activePositions: () => ['futures', 'positions', 'active'] as const,
  activeOrders: (symbol: string) => ['futures', 'orders', 'active', symbol] as const,
  trades: (symbol: string) => ['futures', 'trades', symbol] as const,
};
