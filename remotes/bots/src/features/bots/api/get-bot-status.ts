import { type BotStatus, BotStatusResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { botKeys, botPath } from './bot-keys';

/**
 * A running bot's status is read again this often while it runs; between reads its card follows the pushed mark
 * price (`atLiveMark`), and each of its own events (a fill, an order) reads it again at once (`useBotNotices`)
 */
export const BOT_STATUS_REFRESH_MS = 5_000;

export async function getBotStatus(api: ApiClient, id: string, signal?: AbortSignal): Promise<BotStatus> {
  return unwrap(await api.get(botPath(id, '/status'), { schema: BotStatusResponseSchema, signal })).data;
}

export function getBotStatusQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: botKeys.status(id),
    queryFn: ({ signal }) => getBotStatus(api, id, signal),
  });
}

/** One bot and how it is doing: PnL, position, open orders, uptime, its last events */
export function useBotStatus(id: string | null) {
  const { api } = useKestrelRuntime();
  return useQuery({
    ...getBotStatusQueryOptions(api, id ?? ''),
    enabled: id !== null,
    refetchInterval: (query) => {
      const state = query.state.data?.bot.state;
      return state === 'running' || state === 'starting' || state === 'stopping'
        ? BOT_STATUS_REFRESH_MS
        : false;
    },
  });
}
