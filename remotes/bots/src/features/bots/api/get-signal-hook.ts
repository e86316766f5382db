import { type SignalHook, SignalHookResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { botKeys, botPath } from './bot-keys';

/** The bot's webhook, or null when it has none; its secret is never read back (shown once, when made) */
export async function getSignalHook(
  api: ApiClient,
  id: string,
  signal?: AbortSignal,
): Promise<SignalHook | null> {
  return unwrap(await api.get(botPath(id, '/signal-hook'), { schema: SignalHookResponseSchema, signal })).data
    .hook;
}

export function getSignalHookQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: botKeys.signalHook(id),
    queryFn: ({ signal }) => getSignalHook(api, id, signal),
  });
}

/** A bot's signal webhook, asked for only while its Signals section is open */
export function useSignalHook(id: string, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getSignalHookQueryOptions(api, id), enabled });
}
