import { type EntryProtectionRecord, EntryProtectionsResponseSchema } from '@kestrel/contracts';
import { unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useQuery } from '@tanstack/react-query';
import { orderKeys } from './order-keys';

/**
 * TP/SL attached to entries, as the server keeps them: waiting for their entry to fill, or failed (the exchange
 * refused them after the fill). Under `['futures']`, so an order or a fill asks again
 */
export function useEntryProtections(enabled: boolean, refetchInterval: number | false) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: [...orderKeys.all, 'orders', 'protections'] as const,
    queryFn: async ({ signal }): Promise<EntryProtectionRecord[]> =>
      unwrap(
        await api.get('/api/futures/orders/protections', { schema: EntryProtectionsResponseSchema, signal }),
      ).data,
    enabled,
    refetchInterval,
  });
}
