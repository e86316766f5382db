import { type FuturesOrder, FuturesOrdersResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { orderKeys } from './order-keys';

/** Open orders and waiting conditional orders (stops, take-profits), every symbol */
export async function getOpenOrders(api: ApiClient, signal?: AbortSignal): Promise<FuturesOrder[]> {
  return unwrap(await api.get('/api/futures/orders/active', { schema: FuturesOrdersResponseSchema, signal }))
    .data;
}

export function getOpenOrdersQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: orderKeys.open(), queryFn: ({ signal }) => getOpenOrders(api, signal) });
}

/** The account's open orders; asked for only while an exchange is connected */
export function useOpenOrders(enabled: boolean, refetchInterval: number | false) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getOpenOrdersQueryOptions(api), enabled, refetchInterval });
}
