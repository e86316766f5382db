import { type BacktestCandles, BacktestCandlesResponseSchema } from '@kestrel/contracts/backtest';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { backtestKeys } from './backtest-keys';

export async function getBacktestCandles(
  api: ApiClient,
  id: string,
  signal?: AbortSignal,
): Promise<BacktestCandles> {
  return unwrap(
    await api.get(`/api/v1/backtests/${encodeURIComponent(id)}/candles`, {
      schema: BacktestCandlesResponseSchema,
      signal,
    }),
  ).data;
}

export function getBacktestCandlesQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: backtestKeys.candles(id),
    queryFn: ({ signal }) => getBacktestCandles(api, id, signal),
    // A finished run's bars never change
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: false,
  });
}

/** The run's bars for the candle chart (asked for once the run completed) */
export function useBacktestCandles(id: string, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({ ...getBacktestCandlesQueryOptions(api, id), enabled });
}
