import { type BotEvent, BotEventsResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { botKeys, botPath } from './bot-keys';

/** Lines of the log a page shows at once (the server keeps them all) */
export const BOT_LOG_LIMIT = 100;

export async function getBotEvents(api: ApiClient, id: string, signal?: AbortSignal): Promise<BotEvent[]> {
  return unwrap(
    await api.get(botPath(id, '/events'), {
      query: { limit: BOT_LOG_LIMIT },
      schema: BotEventsResponseSchema,
      signal,
    }),
  ).data;
}

export function getBotEventsQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: botKeys.events(id),
    queryFn: ({ signal }) => getBotEvents(api, id, signal),
  });
}

/** A bot's log, newest first; `notifications/bot` pushes refetch it (`useBotNotices`) */
export function useBotEvents(id: string | null) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getBotEventsQueryOptions(api, id ?? ''), enabled: id !== null });
}
