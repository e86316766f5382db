import { type KlineInterval, KlinesResponseSchema } from '@kestrel/contracts';
import { type BotPlan, type BotPlanRequest, BotPlanResponseSchema } from '@kestrel/contracts/bots';
import { unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useQuery } from '@tanstack/react-query';
import { botKeys } from './bot-keys';

/** The price moves: a plan shown this long is drawn again at the price then */
export const BOT_PLAN_STALE_MS = 30_000;

/** The orders these settings would place at the price now, their margin and what the exchange would refuse */
export function useBotPlan(ask: BotPlanRequest) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: botKeys.plan(ask),
    queryFn: async ({ signal }): Promise<BotPlan> =>
      unwrap(await api.post('/api/v1/agents/plan', ask, { schema: BotPlanResponseSchema, signal })).data,
    staleTime: BOT_PLAN_STALE_MS,
    refetchInterval: BOT_PLAN_STALE_MS,
  });
}

/** The candles the plan is drawn over: the last days of the symbol (the market's, not the bot's interval) */
export function useRecentCandles(symbol: string, interval: KlineInterval, limit: number) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: ['market', 'klines', symbol, interval, limit] as const,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.get(`/api/v1/market/klines/${encodeURIComponent(symbol)}`, {
          query: { interval, limit },
          schema: KlinesResponseSchema,
          signal,
        }),
      ).data.klines.map((k) => ({
        time: k.openTime,
        open: Number(k.open),
        high: Number(k.high),
        low: Number(k.low),
        close: Number(k.close),
      })),
    staleTime: 60_000,
  });
}
