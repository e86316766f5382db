import {
  type OrderBook,
  OrderBookResponseSchema,
  type RecentTrades,
  RecentTradesResponseSchema,
} from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { queryOptions } from '@tanstack/react-query';

/** Levels per side the page asks for and shows the grouping from (the pushes carry as many) */
export const BOOK_LEVELS = 50;
/** Trades the tape opens with and keeps */
export const TAPE_TRADES = 30;

/** Market data of the symbol: under `['market', …]`, which no account notice refetches */
export const bookKeys = {
  depth: (symbol: string) => ['market', 'depth', symbol] as const,
  trades: (symbol: string) => ['market', 'trades', symbol] as const,
};

export function orderBookQuery(api: ApiClient, symbol: string) {
  return queryOptions({
    queryKey: bookKeys.depth(symbol),
    queryFn: async ({ signal }): Promise<OrderBook> =>
      unwrap(
        await api.get(`/api/v1/market/depth/${encodeURIComponent(symbol)}`, {
          query: { limit: BOOK_LEVELS },
          schema: OrderBookResponseSchema,
          signal,
        }),
      ).data,
  });
}

export function recentTradesQuery(api: ApiClient, symbol: string) {
  return queryOptions({
    queryKey: bookKeys.trades(symbol),
    queryFn: async ({ signal }): Promise<RecentTrades> =>
      unwrap(
        await api.get(`/api/v1/market/trades/${encodeURIComponent(symbol)}`, {
          query: { limit: TAPE_TRADES },
          schema: RecentTradesResponseSchema,
          signal,
        }),
      ).data,
  });
}
