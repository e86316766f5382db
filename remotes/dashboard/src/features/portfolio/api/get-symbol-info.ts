import { type SymbolInfo, SymbolInfoResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQueries } from '@tanstack/react-query';
import { portfolioKeys } from './portfolio-keys';

/** A symbol's trading rules: tick size, lot step, minimum quantity and notional */
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
    queryKey: portfolioKeys.symbolInfo(symbol),
    queryFn: ({ signal }) => getSymbolInfo(api, symbol, signal),
    // Binance changes a contract's filters rarely; an hour old is fresh enough for formatting and checks
    staleTime: 60 * 60_000,
    refetchInterval: false,
  });
}

/** The rules of each symbol on screen, by symbol (a symbol still loading, or unknown, is absent) */
export function useSymbolsInfo(symbols: readonly string[], enabled: boolean): Map<string, SymbolInfo> {
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
