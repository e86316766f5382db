import { BacktestStrategiesResponseSchema, type BacktestStrategyInfo } from '@kestrel/contracts/backtest';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { backtestKeys } from './backtest-keys';

export async function getStrategies(api: ApiClient, signal?: AbortSignal): Promise<BacktestStrategyInfo[]> {
  const reply = unwrap(
    await api.get('/api/v1/backtests/strategies', { schema: BacktestStrategiesResponseSchema, signal }),
  );
  return reply.data;
}

export function getStrategiesQueryOptions(api: ApiClient) {
  return queryOptions({
    queryKey: backtestKeys.strategies(),
    queryFn: ({ signal }) => getStrategies(api, signal),
    // The built-in catalogue only changes with a server release
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: false,
  });
}

/** The strategies a backtest can run, with their parameter schemas and defaults */
export function useStrategies() {
  const { api } = useKestrelRuntime();
  return useQuery(getStrategiesQueryOptions(api));
}
