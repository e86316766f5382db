import { type SymbolInfo, SymbolInfoResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { stepDecimals } from '@kestrel/ui';
import { queryOptions, useQueries } from '@tanstack/react-query';

/**
 * A symbol's trading rules (tick size, lot step, minimum quantity and notional), read by every page of this remote:
 * one fetcher and one cache entry per symbol. Public: no exchange keys needed. The key sits under
 * `['futures', 'symbols']`, the one futures prefix the runtime does not refetch on account pushes
 */
export const symbolInfoKey = (symbol: string) => ['futures', 'symbols', symbol] as const;

/** Binance changes a contract's filters a few times a year; an hour old is fresh enough for formatting and checks */
const RULES_STALE_MS = 60 * 60_000;

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
    queryKey: symbolInfoKey(symbol),
    queryFn: ({ signal }) => getSymbolInfo(api, symbol, signal),
    staleTime: RULES_STALE_MS,
    refetchInterval: false,
  });
}

/** The rules of each symbol on screen, by symbol (a symbol still loading, or unknown, is absent) */
export function useSymbolsInfo(symbols: readonly string[], enabled = true): ReadonlyMap<string, SymbolInfo> {
  const { api } = useKestrelRuntime();
  return useQueries({
    queries: symbols.map((symbol) => ({ ...getSymbolInfoQueryOptions(api, symbol), enabled })),
    combine: (results) => {
      const map = new Map<string, SymbolInfo>();
      for (const r of results) if (r.data) map.set(r.data.symbol, r.data);
      return map;
    },
  });
}

/** How many decimals a symbol's prices and quantities show, once its rules are known */
export interface SymbolPrecision {
  price: number;
  quantity: number;
}

/** Price and quantity decimals of each symbol whose rules arrived (a missing one formats by magnitude) */
export function useSymbolPrecisions(symbols: readonly string[]): ReadonlyMap<string, SymbolPrecision> {
  const { api } = useKestrelRuntime();
  return useQueries({
    queries: symbols.map((symbol) => getSymbolInfoQueryOptions(api, symbol)),
    combine: (results) => {
      const map = new Map<string, SymbolPrecision>();
      for (const { data } of results) {
        if (data)
          map.set(data.symbol, { price: stepDecimals(data.tickSize), quantity: stepDecimals(data.stepSize) });
      }
      return map;
    },
  });
}
