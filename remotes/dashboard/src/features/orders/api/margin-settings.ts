import {
  type MarginType,
  MarginTypeResponseSchema,
  type PositionMarginRequest,
  PositionMarginResponseSchema,
} from '@kestrel/contracts';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { classifyFailure, OrderFailureError } from '../lib/order-failure';
import { invalidateAccount } from './order-keys';

/**
 * Cross or isolated margin for a symbol. Binance refuses it while the symbol has an open order or a position, in
 * its words (shown in the dialog)
 */
export function useSetMarginType() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: { symbol: string; marginType: MarginType }) => {
      const result = await api.post('/api/futures/margin-type', request, {
        schema: MarginTypeResponseSchema,
      });
      if (!result.success) throw new OrderFailureError(classifyFailure(result));
      return result.data.data;
    },
    retry: false,
    onSuccess: () => invalidateAccount(queryClient),
  });
}

/** Margin into or out of an isolated position (USDT): its liquidation price moves with it */
export function useChangePositionMargin() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: PositionMarginRequest) => {
      const result = await api.post('/api/futures/positions/margin', request, {
        schema: PositionMarginResponseSchema,
      });
      if (!result.success) throw new OrderFailureError(classifyFailure(result));
      return result.data.data;
    },
    retry: false,
    onSuccess: () => invalidateAccount(queryClient),
  });
}
