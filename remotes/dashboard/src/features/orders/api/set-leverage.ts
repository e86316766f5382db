import { LeverageResponseSchema } from '@kestrel/contracts';
import type { ApiClient } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { classifyFailure, OrderFailureError } from '../lib/order-failure';
import { invalidateAccount } from './order-keys';

/** Sets a symbol's leverage (1-125; the exchange may refuse a value its brackets do not allow for the position) */
export async function setLeverage(
  api: ApiClient,
  request: { symbol: string; leverage: number },
): Promise<{ symbol: string; leverage: number }> {
  const result = await api.post('/api/futures/leverage/set', request, { schema: LeverageResponseSchema });
  if (!result.success) throw new OrderFailureError(classifyFailure(result));
  return result.data.data;
}

export function useSetLeverage() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: { symbol: string; leverage: number }) => setLeverage(api, request),
    retry: false,
    // Margin and liquidation price move with the leverage
    onSuccess: () => invalidateAccount(queryClient),
  });
}
