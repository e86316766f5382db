import { type KlineInterval, KlinesResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Candle, toCandles } from '../lib/candles';
import { chartKeys } from './chart-keys';

/** The spec's klines default (§9): interval 1h, 100 candles */
export const DEFAULT_INTERVAL: KlineInterval = '1h';
export const CANDLE_LIMIT = 100;

export async function getKlines(
  api: ApiClient,
  symbol: string,
  interval: KlineInterval,
  limit: number,
  signal?: AbortSignal,
): Promise<readonly Candle[]> {
  const reply = unwrap(
    await api.get(`/api/v1/market/klines/${encodeURIComponent(symbol)}`, {
      query: { interval, limit },
      schema: KlinesResponseSchema,
      signal,
    }),
  );
  return toCandles(reply.data.klines);
}

export function getKlinesQueryOptions(
  api: ApiClient,
  symbol: string,
  interval: KlineInterval,
  limit: number,
) {
  return queryOptions({
    queryKey: chartKeys.klines(symbol, interval, limit),
    queryFn: ({ signal }) => getKlines(api, symbol, interval, limit, signal),
  });
}

/**
 * Candles of one symbol and interval. Candle pushes keep them current (see `useCandles`), so the default
 * five-minute refetch is off; the runtime still polls them while the socket is down and refetches on resume
 */
export function useKlines(symbol: string, interval: KlineInterval) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getKlinesQueryOptions(api, symbol, interval, CANDLE_LIMIT), refetchInterval: false });
}
