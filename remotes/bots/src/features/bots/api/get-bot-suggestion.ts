import { type BotSuggestion, BotSuggestionResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useQueries } from '@tanstack/react-query';
import { botKeys } from './bot-keys';

export interface BotSuggestionAsk {
  strategy: string;
  symbol: string;
  leverage: number;
  budget: number;
}

/**
 * A new bot's starting values from the market now: the strategy's parameters drawn at the symbol's price (a grid's
 * range around it), sizes the exchange takes, and the budget its orders need
 */
export async function getBotSuggestion(
  api: ApiClient,
  ask: BotSuggestionAsk,
  signal?: AbortSignal,
): Promise<BotSuggestion> {
  const query = new URLSearchParams({
    strategy: ask.strategy,
    symbol: ask.symbol,
    leverage: String(ask.leverage),
    budget: String(ask.budget),
  });
  return unwrap(
    await api.get(`/api/v1/agents/suggestion?${query}`, { schema: BotSuggestionResponseSchema, signal }),
  ).data;
}

/** How long a template's market values stand on the hub: its figures are one backtest a day, not one per price tick */
const SUGGESTION_STALE_MS = 60 * 60_000;

/**
 * Each ask's starting values from the market (`undefined` while read; `null` when it could not be read, so the
 * caller falls back to the strategy's defaults), read once an hour at most
 */
export function useBotSuggestions(
  asks: readonly BotSuggestionAsk[],
): Array<{ suggestion: BotSuggestion | null | undefined }> {
  const { api } = useKestrelRuntime();
  return useQueries({
    queries: asks.map((ask) => ({
      queryKey: botKeys.suggestion(ask),
      queryFn: ({ signal }: { signal: AbortSignal }) => getBotSuggestion(api, ask, signal),
      staleTime: SUGGESTION_STALE_MS,
      retry: 1,
    })),
    combine: (results) =>
      results.map((r) => ({ suggestion: r.isPending ? undefined : r.isError ? null : r.data })),
  });
}
