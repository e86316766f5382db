import { type FuturesPosition, FuturesPositionsResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { chartKeys } from './chart-keys';

export async function getActivePositions(api: ApiClient, signal?: AbortSignal): Promise<FuturesPosition[]> {
  return unwrap(
    await api.get('/api/futures/positions/active', { schema: FuturesPositionsResponseSchema, signal }),
  ).data;
}

export function getActivePositionsQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: chartKeys.activePositions(),
    queryFn: ({ signal }) => getActivePositions(api, signal),
  });
}

/** The account's open positions (entry and liquidation lines); only asked for with an exchange connected */
export function useActivePositions(enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getActivePositionsQueryOptions(api), enabled });
}
