import { type FuturesTrade, FuturesTradesResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { chartKeys } from './chart-keys';

export async function getSymbolTrades(
  api: ApiClient,
  symbol: string,
  signal?: AbortSignal,
): Promise<FuturesTrade[]> {
  return unwrap(
    await api.get('/api/futures/history/trades', {
      query: { symbol },
      schema: FuturesTradesResponseSchema,
      signal,
    }),
  ).data;
}

export function getSymbolTradesQueryOptions(api: ApiClient, symbol: string) {
  return queryOptions({
    queryKey: chartKeys.trades(symbol),
    queryFn: ({ signal }) => getSymbolTrades(api, symbol, signal),
  });
}

/** The user's fills of the chart's symbol (markers), newest first, the server's default 100 */
export function useSymbolTrades(symbol: string, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getSymbolTradesQueryOptions(api, symbol), enabled });
}
