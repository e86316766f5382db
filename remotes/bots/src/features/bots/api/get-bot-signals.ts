import { type SignalRecord, SignalsResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { botKeys, botPath } from './bot-keys';

/** Signals a card lists (the server keeps them all) */
export const BOT_SIGNALS_LIMIT = 20;
/**
 * While the section is open and the bot runs, its signals are read again this often: a push (`signal_received`)
 * refetches them at once, this catches one lost during a reconnect
 */
export const BOT_SIGNALS_REFRESH_MS = 5_000;

export async function getBotSignals(
  api: ApiClient,
  id: string,
  signal?: AbortSignal,
): Promise<SignalRecord[]> {
  return unwrap(
    await api.get(botPath(id, '/signals'), {
      query: { limit: BOT_SIGNALS_LIMIT },
      schema: SignalsResponseSchema,
      signal,
    }),
  ).data.signals;
}

export function getBotSignalsQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: botKeys.signals(id),
    queryFn: ({ signal }) => getBotSignals(api, id, signal),
  });
}

/** The last signals a bot's webhook received, newest first, with what each caused; asked for only while shown */
export function useBotSignals(id: string, { enabled, running }: { enabled: boolean; running: boolean }) {
  const { api } = useKestrelRuntime();
  return useQuery({
    ...getBotSignalsQueryOptions(api, id),
    enabled,
    refetchInterval: enabled && running ? BOT_SIGNALS_REFRESH_MS : false,
  });
}
