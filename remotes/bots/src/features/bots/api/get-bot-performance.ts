import { type BotPerformance, BotPerformanceResponseSchema } from '@kestrel/contracts/bots';
import { unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useQuery } from '@tanstack/react-query';
import { botKeys, botPath } from './bot-keys';

/** A running bot's chart and curve are read again this often (each of its fills reads them at once: `useBotNotices`) */
export const BOT_PERFORMANCE_REFRESH_MS = 30_000;

/** The bot's candles, fills and PnL curve since its first fill */
export function useBotPerformance(id: string, running: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: botKeys.performance(id),
    queryFn: async ({ signal }): Promise<BotPerformance> =>
      unwrap(await api.get(botPath(id, '/performance'), { schema: BotPerformanceResponseSchema, signal }))
        .data,
    refetchInterval: running ? BOT_PERFORMANCE_REFRESH_MS : false,
  });
}
