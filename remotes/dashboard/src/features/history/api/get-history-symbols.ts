import { HistorySymbolsResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useQuery } from '@tanstack/react-query';
import { historyKeys } from './history-keys';

/** Symbols with imported history, A to Z: the symbol filter's choices */
export async function getHistorySymbols(api: ApiClient, signal?: AbortSignal): Promise<string[]> {
  return unwrap(
    await api.get('/api/v1/dashboard/history/symbols', { schema: HistorySymbolsResponseSchema, signal }),
  ).data;
}

export function useHistorySymbols(enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: historyKeys.symbols(),
    queryFn: ({ signal }) => getHistorySymbols(api, signal),
    enabled,
  });
}
