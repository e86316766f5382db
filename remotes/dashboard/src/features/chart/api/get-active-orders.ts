import { type FuturesOrder, FuturesOrdersResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { chartKeys } from './chart-keys';

export async function getActiveOrders(
  api: ApiClient,
  symbol: string,
  signal?: AbortSignal,
): Promise<FuturesOrder[]> {
  return unwrap(
    await api.get('/api/futures/orders/active', {
      query: { symbol },
      schema: FuturesOrdersResponseSchema,
      signal,
    }),
  ).data;
}

export function getActiveOrdersQueryOptions(api: ApiClient, symbol: string) {
  return queryOptions({
    queryKey: chartKeys.activeOrders(symbol),
    queryFn: ({ signal }) => getActiveOrders(api, symbol, signal),
  });
}

/** Open orders and waiting conditional orders of the chart's symbol (price lines) */
export function useActiveOrders(symbol: string, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getActiveOrdersQueryOptions(api, symbol), enabled });
}
