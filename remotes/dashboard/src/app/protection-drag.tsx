import { lazy, type ReactNode, Suspense, useCallback, useMemo, useState } from 'react';
import { useSymbolsInfo } from '../api/get-symbol-info';
import type { ChartLineDrag } from '../features/chart/components/chart-panel';
import { type MovableProtection, movableProtections } from '../features/orders/lib/protection-move';

// The dialog and the order calls behind it load with the first drop, not with the page
const MoveProtectionDialog = lazy(() => import('../features/orders/components/move-protection-dialog'));

/**
 * The chart's draggable TP/SL lines, composed here because the chart and the orders are two features: the orders
 * say which lines are a position's take-profit and stop-loss, the chart lets them be dragged, and a drop opens the
 * orders' confirmation. Nothing moves on the exchange until the trader confirms; until then the line stays where it
 * was dropped, and canceling puts it back. Once confirmed it stays there until the open orders are fetched again
 */
export function useProtectionDrag(
  symbol: string,
  connected: boolean,
): { drag: ChartLineDrag<MovableProtection> | undefined; dialog: ReactNode } {
  const info = useSymbolsInfo([symbol], connected).get(symbol);
  const [move, setMove] = useState<{ protection: MovableProtection; to: string } | null>(null);
  // A confirmed move, held where it was dropped until the open orders are fetched after it was sent
  const [sent, setSent] = useState<{ orderId: string; price: number; until: number } | null>(null);
  const movableOf = useCallback(
    (positions: Parameters<typeof movableProtections>[0], orders: Parameters<typeof movableProtections>[1]) =>
      movableProtections(positions, orders, symbol),
    [symbol],
  );
  const onMove = useCallback((to: { to: string }, protection: MovableProtection) => {
    setSent(null);
    setMove({ protection, to: to.to });
    return true;
  }, []);
  const tickSize = info?.tickSize;
  const drag = useMemo(
    () =>
      connected && tickSize !== undefined
        ? {
            tickSize,
            movableOf,
            onMove,
            pending: move ? { orderId: move.protection.order.orderId, price: Number(move.to) } : sent,
          }
        : undefined,
    [connected, tickSize, movableOf, onMove, move, sent],
  );
  const dialog = move ? (
    <Suspense fallback={null}>
      <MoveProtectionDialog
        protection={move.protection}
        to={move.to}
        info={info}
        onClose={(sentAt) => {
          setSent(
            sentAt === undefined
              ? null
              : { orderId: move.protection.order.orderId, price: Number(move.to), until: sentAt },
          );
          setMove(null);
        }}
      />
    </Suspense>
  ) : null;
  return { drag, dialog };
}
