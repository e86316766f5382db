import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { backtestKeys } from './backtest-keys';

/** Removes a finished run (the server refuses one still going) */
export async function deleteBacktest(api: ApiClient, id: string): Promise<void> {
  unwrap(await api.delete(`/api/v1/backtests/${encodeURIComponent(id)}`));
}

export function useDeleteBacktest() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteBacktest(api, id),
    retry: false,
    onSuccess: (_data, id) => {
      queryClient.removeQueries({ queryKey: backtestKeys.detail(id) });
      queryClient.removeQueries({ queryKey: backtestKeys.candles(id) });
      return queryClient.invalidateQueries({ queryKey: backtestKeys.list() });
    },
  });
}
