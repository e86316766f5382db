import { type FuturesOrder, FuturesOrderResponseSchema, type PlaceOrderRequest } from '@kestrel/contracts';
import type { ApiClient } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { classifyFailure, OrderFailureError } from '../lib/order-failure';
import { invalidateAccount } from './order-keys';

/**
 * Places an order; a failure throws an `OrderFailureError` saying whether it was refused, not sent, or of unknown
 * status. Give a `clientOrderId`: sent again after an unknown status, the same id cannot make a second order.
 * An entry's `protection` (TP/SL) is kept by the server and placed once the entry fills
 */
export async function createOrder(api: ApiClient, request: PlaceOrderRequest): Promise<FuturesOrder> {
  const result = await api.post('/api/futures/orders/create', request, {
    schema: FuturesOrderResponseSchema,
  });
  if (!result.success) throw new OrderFailureError(classifyFailure(result));
  return result.data.data;
}

export function useCreateOrder() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: PlaceOrderRequest) => createOrder(api, request),
    // Never resent by the client: a retry after a lost answer could open a second position
    retry: false,
    onSuccess: () => invalidateAccount(queryClient),
    onError: (error) => {
      // A refusal changed nothing; an unknown status may have placed it, so the lists are asked again
      if (error instanceof OrderFailureError && error.failure.kind === 'unknown') {
        return invalidateAccount(queryClient);
      }
    },
  });
}
