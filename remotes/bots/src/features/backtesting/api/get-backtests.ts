import { BacktestListResponseSchema, type BacktestSummary } from '@kestrel/contracts/backtest';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { backtestKeys } from './backtest-keys';

export async function getBacktests(api: ApiClient, signal?: AbortSignal): Promise<BacktestSummary[]> {
  return unwrap(await api.get('/api/v1/backtests', { schema: BacktestListResponseSchema, signal })).data;
}

export function getBacktestsQueryOptions(api: ApiClient) {
  return queryOptions({ queryKey: backtestKeys.list(), queryFn: ({ signal }) => getBacktests(api, signal) });
}

/** The user's runs, newest first */
export function useBacktests() {
  const { api } = useKestrelRuntime();
  return useQuery(getBacktestsQueryOptions(api));
}
