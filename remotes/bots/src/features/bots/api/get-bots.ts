import { type Bot, BotListResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { botKeys } from './bot-keys';

export async function getBots(api: ApiClient, signal?: AbortSignal): Promise<Bot[]> {
  return unwrap(await api.get('/api/v1/agents', { schema: BotListResponseSchema, signal })).data;
}

export function getBotsQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: botKeys.list(), queryFn: ({ signal }) => getBots(api, signal) });
}

/** The user's bots (and agents), as stored: configuration and state */
export function useBots() {
  const { api } = useKestrelRuntime();
  return useQuery(getBotsQueryOptions(api));
}
