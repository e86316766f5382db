import { type FuturesTrade, FuturesTradesResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { fillsKeys } from './fills-keys';

/** How many of the latest fills the dashboard shows (the full list is /history's) */
export const RECENT_FILLS_LIMIT = 20;

/** The account's latest fills over every symbol it traded, newest first */
export async function getRecentFills(
  api: ApiClient,
  limit: number,
  signal?: AbortSignal,
): Promise<FuturesTrade[]> {
  return unwrap(
    await api.get('/api/futures/history/trades', {
      query: { limit },
      schema: FuturesTradesResponseSchema,
      signal,
    }),
  ).data;
}

export function getRecentFillsQueryOptions(api: ApiClient, limit = RECENT_FILLS_LIMIT) {
  return queryOptions({
    queryKey: fillsKeys.recent(limit),
    queryFn: ({ signal }) => getRecentFills(api, limit, signal),
  });
}

/** Only asked for with an exchange connected */
export function useRecentFills(enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getRecentFillsQueryOptions(api), enabled });
}
