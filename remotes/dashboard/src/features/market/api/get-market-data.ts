import { MarketDataResponseSchema, type Ticker } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { marketKeys } from './market-keys';

/**
 * How often the 24 h tickers are asked for again while live pushes are flowing: a ticker push carries price, change,
 * high, low and base volume, but not the quote volume the table sorts by. (While the socket is down the runtime
 * polls every `['market', …]` query.)
 */
export const MARKET_DATA_REFRESH_MS = 60_000;

/** 24 h tickers of the watched symbols (one call, at most 50 symbols) */
export async function getMarketData(
  api: ApiClient,
  symbols: readonly string[],
  signal?: AbortSignal,
): Promise<Ticker[]> {
  return unwrap(
    await api.get('/api/v1/market/data', {
      query: { symbols: symbols.join(',') },
      schema: MarketDataResponseSchema,
      signal,
    }),
  ).data;
}

export function getMarketDataQueryOptions(api: ApiClient, symbols: readonly string[]) {
  return queryOptions({
    queryKey: marketKeys.tickers(symbols),
    queryFn: ({ signal }) => getMarketData(api, symbols, signal),
  });
}

/** The watch list's tickers (live pushes move them between answers) */
export function useMarketData(symbols: readonly string[]) {
  const { api } = useKestrelRuntime();
  return useQuery({
    ...getMarketDataQueryOptions(api, symbols),
    enabled: symbols.length > 0,
    // A symbol added to the list keeps the table on screen while its row loads
    placeholderData: keepPreviousData,
    refetchInterval: MARKET_DATA_REFRESH_MS,
  });
}
