import { type BotsSummary, BotsSummaryResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { overviewKeys } from './overview-keys';

/**
 * A paper bot's PnL moves with closed bars, which no account notice reports: refetched this often while the page is
 * open (the shortest bar is a minute)
 */
export const BOTS_SUMMARY_REFRESH_MS = 30_000;

/** The user's bots with their PnL (paper bots need no exchange, so this is asked for without one) */
export async function getBotsSummary(api: ApiClient, signal?: AbortSignal): Promise<BotsSummary> {
  return unwrap(await api.get('/api/v1/dashboard/bots', { schema: BotsSummaryResponseSchema, signal })).data;
}

export function getBotsSummaryQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: overviewKeys.bots(),
    queryFn: ({ signal }) => getBotsSummary(api, signal),
    refetchInterval: BOTS_SUMMARY_REFRESH_MS,
  });
}

export function useBotsSummary() {
  const { api } = useKestrelRuntime();
  return useQuery(getBotsSummaryQueryOptions(api));
}
