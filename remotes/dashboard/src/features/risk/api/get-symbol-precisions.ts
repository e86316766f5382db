import { type SymbolInfo, SymbolInfoResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { stepDecimals } from '@kestrel/ui';
import { queryOptions, useQueries } from '@tanstack/react-query';
import { symbolRulesKey } from './risk-keys';

/** Trading rules change rarely: an hour in the cache */
const RULES_STALE_MS = 3_600_000;

export async function getSymbolInfo(
  api: ApiClient,
  symbol: string,
  signal?: AbortSignal,
): Promise<SymbolInfo> {
  return unwrap(
    await api.get('/api/futures/symbols/info', {
      query: { symbol },
      schema: SymbolInfoResponseSchema,
      signal,
    }),
  ).data;
}

export function getSymbolInfoQueryOptions(api: ApiClient, symbol: string) {
  return queryOptions({
    queryKey: symbolRulesKey(symbol),
    queryFn: ({ signal }) => getSymbolInfo(api, symbol, signal),
    staleTime: RULES_STALE_MS,
  });
}

/** Price and quantity decimals per symbol (from tick and lot step); absent until its rules are read */
export function useSymbolPrecisions(
  symbols: readonly string[],
): Map<string, { price: number; quantity: number }> {
  const { api } = useKestrelRuntime();
  const results = useQueries({ queries: symbols.map((s) => getSymbolInfoQueryOptions(api, s)) });
  const map = new Map<string, { price: number; quantity: number }>();
  results.forEach((r, i) => {
    const symbol = symbols[i];
    if (r.data && symbol)
      map.set(symbol, { price: stepDecimals(r.data.tickSize), quantity: stepDecimals(r.data.stepSize) });
  });
  return map;
}
