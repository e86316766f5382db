import { type Analytics, AnalyticsResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { type AnalyticsRange, resolveRange } from '../lib/range';
import { analyticsKeys } from './analytics-keys';

/** The account's results over a range, from the server's recorded history (no exchange call, no keys needed) */
export async function getAnalytics(
  api: ApiClient,
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<Analytics> {
  // Resolved when fetched: a preset ("the last 7 days") always ends now
  const { from, to } = resolveRange(range, Date.now());
  return unwrap(
    await api.get('/api/v1/dashboard/analytics', {
      query: { from, to },
      schema: AnalyticsResponseSchema,
      signal,
    }),
  ).data;
}

export function getAnalyticsQueryOptions(api: ApiClient, range: AnalyticsRange) {
  return queryOptions({
    queryKey: analyticsKeys.range(range),
    queryFn: ({ signal }) => getAnalytics(api, range, signal),
  });
}

/** The figures of a range; the previous range's stay on screen while another one loads */
export function useAnalytics(range: AnalyticsRange) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getAnalyticsQueryOptions(api, range), placeholderData: keepPreviousData });
}
