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

// The `combine` functions of the two hooks below live at module level on purpose: TanStack Query re-runs an inline
// `combine` on every render, so the hook would hand out a new Map each time. A table whose columns depend on the map
// (the market watch) then rebuilt its columns on every live tick, and since a column's `cell` is rendered as a
// component, every cell of every row was unmounted and mounted again for each tick (`pnpm bench cockpit-ticks`
// counts the nodes replaced). A stable `combine` is re-run only when a query's result changes.

type InfoResults = ReadonlyArray<{ data?: SymbolInfo }>;

function infoBySymbol(results: InfoResults): ReadonlyMap<string, SymbolInfo> {
  const map = new Map<string, SymbolInfo>();
  for (const r of results) if (r.data) map.set(r.data.symbol, r.data);
  return map;
}

/** The rules of each symbol on screen, by symbol (a symbol still loading, or unknown, is absent) */
export function useSymbolsInfo(symbols: readonly string[], enabled = true): ReadonlyMap<string, SymbolInfo> {
  const { api } = useKestrelRuntime();
  return useQueries({
    queries: symbols.map((symbol) => ({ ...getSymbolInfoQueryOptions(api, symbol), enabled })),
    combine: infoBySymbol,
  });
}

/** How many decimals a symbol's prices and quantities show, once its rules are known */
export interface SymbolPrecision {
  price: number;
  quantity: number;
}

function precisionBySymbol(results: InfoResults): ReadonlyMap<string, SymbolPrecision> {
  const map = new Map<string, SymbolPrecision>();
  for (const { data } of results) {
    if (data)
      map.set(data.symbol, { price: stepDecimals(data.tickSize), quantity: stepDecimals(data.stepSize) });
  }
  return map;
}

/** Price and quantity decimals of each symbol whose rules arrived (a missing one formats by magnitude) */
export function useSymbolPrecisions(symbols: readonly string[]): ReadonlyMap<string, SymbolPrecision> {
  const { api } = useKestrelRuntime();
  return useQueries({
    queries: symbols.map((symbol) => getSymbolInfoQueryOptions(api, symbol)),
    combine: precisionBySymbol,
  });
}
