import { type DashboardOverview, DashboardOverviewResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { overviewKeys } from './overview-keys';

/** Balances, PnL, margin and counts of the connected account */
export async function getOverview(api: ApiClient, signal?: AbortSignal): Promise<DashboardOverview> {
  return unwrap(
    await api.get('/api/v1/dashboard/overview', { schema: DashboardOverviewResponseSchema, signal }),
  ).data;
}

export function getOverviewQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: overviewKeys.overview(),
    queryFn: ({ signal }) => getOverview(api, signal),
  });
}

/**
 * Only asked for with an exchange connected. Account notices on the live socket refetch it (the runtime maps them
 * to `['dashboard', …]`), as does its polling while the socket is down
 */
export function useOverview(enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getOverviewQueryOptions(api), enabled });
}
