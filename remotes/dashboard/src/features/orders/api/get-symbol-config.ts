import { type SymbolConfig, SymbolConfigResponseSchema } from '@kestrel/contracts';
import { unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useQuery } from '@tanstack/react-query';
import { orderKeys } from './order-keys';

/**
 * How the account trades a symbol (margin type, leverage), read from the exchange. Under `['futures']`: a leverage
 * change (or any order) asks for it again
 */
export function useSymbolConfig(symbol: string, enabled: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: [...orderKeys.all, 'symbol-config', symbol] as const,
    queryFn: async ({ signal }): Promise<SymbolConfig> =>
      unwrap(
        await api.get('/api/futures/symbols/config', {
          query: { symbol },
          schema: SymbolConfigResponseSchema,
          signal,
        }),
      ).data,
    enabled: enabled && /^[A-Z0-9]{3,20}$/.test(symbol),
    retry: false,
  });
}
