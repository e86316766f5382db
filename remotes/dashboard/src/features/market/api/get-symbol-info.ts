import { type SymbolInfo, SymbolInfoResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { stepDecimals } from '@kestrel/ui';
import { queryOptions, useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { marketKeys } from './market-keys';

/** Trading rules of one symbol (tick size, lot step): public, no exchange keys needed */
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
    queryKey: marketKeys.symbolInfo(symbol),
    queryFn: ({ signal }) => getSymbolInfo(api, symbol, signal),
    // A symbol's tick size changes a few times a year; a page reload is soon enough
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: false,
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
  const results = useQueries({
    queries: symbols.map((symbol) => getSymbolInfoQueryOptions(api, symbol)),
  });
  const infos = results.map((r) => r.data);
  // biome-ignore lint/correctness/useExhaustiveDependencies: recomputed when an answer arrives, not per render
  return useMemo(() => {
    const map = new Map<string, SymbolPrecision>();
    for (const info of infos) {
      if (info) {
        map.set(info.symbol, { price: stepDecimals(info.tickSize), quantity: stepDecimals(info.stepSize) });
      }
    }
    return map;
  }, [infos.map((i) => i?.symbol ?? '').join(',')]);
}
