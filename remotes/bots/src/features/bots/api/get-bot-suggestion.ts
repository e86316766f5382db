import { type BotSuggestion, BotSuggestionResponseSchema } from '@kestrel/contracts/bots';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';

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
