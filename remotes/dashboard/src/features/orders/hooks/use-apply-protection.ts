import type { FuturesPosition } from '@kestrel/contracts';
import { useCallback } from 'react';
import { useCancelOrder } from '../api/cancel-order';
import { useCreateOrder } from '../api/create-order';
import { OrderFailureError } from '../lib/order-failure';
import { type ProtectionChange, type ProtectionKind, protectionOrder } from '../lib/protection';

const WORDS: Record<ProtectionKind, string> = {
  takeProfit: 'take-profit',
  stopLoss: 'stop-loss',
  trailingStop: 'trailing stop',
};

/**
 * Sends a position's TP/SL changes (`protectionChanges`), one order each, in order. Binance cannot modify a
 * conditional order: a moved one is canceled, then placed anew. Used by the TP/SL dialog and the chart's dragged
 * lines; rejects with the `OrderFailureError` of the step that failed (a refused new order says the old one is gone)
 */
export function useApplyProtection(position: FuturesPosition) {
  const { mutateAsync: create } = useCreateOrder();
  const { mutateAsync: cancel } = useCancelOrder();
  return useCallback(
    async (changes: readonly ProtectionChange[]) => {
      for (const change of changes) {
        const old = change.action === 'remove' ? change.order : change.replaces;
        // Binance keeps one close-position order per kind and side: the old one goes before the new one is placed
        if (old) await cancel(old);
        if (change.action === 'set') {
          try {
            await create(protectionOrder(position, change.kind, change.value));
          } catch (err) {
            if (!(err instanceof OrderFailureError) || !old) throw err;
            throw new OrderFailureError({
              ...err.failure,
              reason: `the previous ${WORDS[change.kind]} was canceled first, and the new one: ${err.failure.reason}`,
            });
          }
        }
      }
    },
    [position, create, cancel],
  );
}
