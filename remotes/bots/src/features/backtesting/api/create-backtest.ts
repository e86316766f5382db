import {
  type BacktestRequestInput,
  type BacktestSummary,
  BacktestSummaryResponseSchema,
} from '@kestrel/contracts/backtest';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { backtestKeys } from './backtest-keys';

/** Queues a run; the server answers 202 with its summary, or 400 with a `detail` naming the bad field */
export async function createBacktest(
  api: ApiClient,
  request: BacktestRequestInput,
): Promise<BacktestSummary> {
  return unwrap(await api.post('/api/v1/backtests', request, { schema: BacktestSummaryResponseSchema })).data;
}

export function useCreateBacktest() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: BacktestRequestInput) => createBacktest(api, request),
    // A rejected request must not be sent twice
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backtestKeys.list() }),
  });
}
