import { type BotsSummary, BotsSummaryResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { botKeys } from './bot-keys';

export async function getBotsSummary(api: ApiClient, signal?: AbortSignal): Promise<BotsSummary> {
  return unwrap(await api.get('/api/v1/dashboard/bots', { schema: BotsSummaryResponseSchema, signal })).data;
}

export function getBotsSummaryQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: botKeys.summary(), queryFn: ({ signal }) => getBotsSummary(api, signal) });
}

/** Counts by state and mode, and PnL over all the user's bots */
export function useBotsSummary() {
  const { api } = useKestrelRuntime();
  return useQuery(getBotsSummaryQueryOptions(api));
}
