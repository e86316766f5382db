import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { backtestKeys } from './backtest-keys';

/** Stops a queued or running run */
export async function cancelBacktest(api: ApiClient, id: string): Promise<void> {
  unwrap(await api.post(`/api/v1/backtests/${encodeURIComponent(id)}/cancel`));
}

export function useCancelBacktest() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => cancelBacktest(api, id),
    retry: false,
    onSuccess: (_data, id) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: backtestKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: backtestKeys.list() }),
      ]),
  });
}
