import { type CreateOrderRequest, type OrderPreview, OrderPreviewResponseSchema } from '@kestrel/contracts';
import { unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { orderKeys } from './order-keys';

/** Typing pauses this long before the estimate is asked for (one request per figure, not per keystroke) */
export const PREVIEW_DEBOUNCE_MS = 400;

function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The server's estimate of what a limit or market order costs and where the position it leaves would be
 * liquidated. Under `['futures']`: a fill or an order asks again. `order` undefined: nothing to estimate yet
 */
export function useOrderPreview(order: CreateOrderRequest | undefined) {
  const { api } = useKestrelRuntime();
  const key = order ? JSON.stringify(order) : '';
  const settled = useSettled(key, PREVIEW_DEBOUNCE_MS);
  return useQuery({
    queryKey: [...orderKeys.all, 'preview', settled] as const,
    queryFn: async ({ signal }): Promise<OrderPreview> =>
      unwrap(
        await api.post('/api/futures/orders/preview', JSON.parse(settled) as CreateOrderRequest, {
          schema: OrderPreviewResponseSchema,
          signal,
        }),
      ).data,
    enabled: settled !== '' && settled === key,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    retry: false,
  });
}
