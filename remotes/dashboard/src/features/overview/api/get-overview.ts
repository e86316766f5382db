import { type DashboardOverview, DashboardOverviewResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { overviewKeys } from './overview-keys';

/** How often the cards are read again while the live socket is down (account pushes otherwise refresh them) */
export const OVERVIEW_POLL_MS = 15_000;

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

/** Only asked for with an exchange connected; polled while the live socket is down */
export function useOverview(enabled: boolean, { live }: { live: boolean }) {
  const { api } = useKestrelRuntime();
  return useQuery({
    ...getOverviewQueryOptions(api),
    enabled,
    ...(live ? {} : { refetchInterval: OVERVIEW_POLL_MS }),
  });
}
