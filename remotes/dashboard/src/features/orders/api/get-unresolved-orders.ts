import { type OrderIntent, OrderIntentsResponseSchema } from '@kestrel/contracts';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useQuery } from '@tanstack/react-query';
import { orderKeys } from './order-keys';

/** How often the list is asked again while an order's status is unknown: the server resolves it in seconds */
export const UNRESOLVED_POLL_MS = 2_000;

/**
 * Orders the server recorded whose outcome it does not know yet (the exchange's answer was lost): only those in
 * state `unknown`; the server keeps asking the exchange and never sends them again
 */
export async function getUnresolvedOrders(api: ApiClient, signal?: AbortSignal): Promise<OrderIntent[]> {
  const intents = unwrap(
    await api.get('/api/v1/orders/intents?filter=unresolved', { schema: OrderIntentsResponseSchema, signal }),
  ).data;
  return intents.filter((i) => i.state === 'unknown');
}

/** Polled quickly while something is unknown, else at the page's pace (under `['futures']`: an order refreshes it) */
export function useUnresolvedOrders(enabled: boolean, idlePollMs: number) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: orderKeys.unresolved(),
    queryFn: ({ signal }) => getUnresolvedOrders(api, signal),
    enabled,
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? UNRESOLVED_POLL_MS : idlePollMs),
  });
}
