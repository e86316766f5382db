import { type FuturesOrder, FuturesOrderResponseSchema } from '@kestrel/contracts';
import type { ApiClient } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { classifyFailure, OrderFailureError } from '../lib/order-failure';
import { invalidateAccount } from './order-keys';

/** Cancels an open order or a waiting conditional order (its `kind` tells the server which) */
export async function cancelOrder(
  api: ApiClient,
  order: Pick<FuturesOrder, 'orderId' | 'symbol' | 'kind'>,
): Promise<FuturesOrder> {
  const result = await api.post(
    `/api/futures/orders/${encodeURIComponent(order.orderId)}/cancel`,
    { symbol: order.symbol, kind: order.kind },
    { schema: FuturesOrderResponseSchema },
  );
  if (!result.success) throw new OrderFailureError(classifyFailure(result));
  return result.data.data;
}

export function useCancelOrder() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (order: FuturesOrder) => cancelOrder(api, order),
    retry: false,
    // Even a refusal ("Unknown order sent.") means the list on screen is out of date
    onSettled: () => invalidateAccount(queryClient),
  });
}
