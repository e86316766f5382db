import type { FuturesPosition } from '@kestrel/contracts';
import { useLiveMarkPrices } from '@kestrel/shared-runtime/react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSymbolsInfo } from '../api/get-symbol-info';
import { useEntryProtections } from '../features/orders/api/get-entry-protections';
import { useOpenOrders } from '../features/orders/api/get-open-orders';
import { useUnresolvedOrders } from '../features/orders/api/get-unresolved-orders';
import { orderKeys } from '../features/orders/api/order-keys';
import { PositionMarginAction } from '../features/orders/components/margin-actions';
import { CloseActions, LeverageAction } from '../features/orders/components/position-actions';
import { ProtectionAction } from '../features/orders/components/protection-action';
import { usePortfolio } from '../features/portfolio/api/get-portfolio';
import { remarkPortfolio } from '../features/portfolio/lib/position-figures';

/**
 * Liquidation prices and margins move with the mark price, which no account notice reports: the one snapshot every
 * figure of the page comes from is read this often (mark and PnL between two reads come from the socket's mark
 * price pushes; fills, and this page's orders, refetch it at once)
 */
export const PORTFOLIO_POLL_MS = 5_000;

const SYMBOL = /^[A-Z0-9]{3,20}$/;

/**
 * The account's rows as the pages that trade show them (/portfolio, /dashboard): the portfolio snapshot re-marked
 * at pushed mark prices, the open orders and those whose outcome is being resolved, the rules of every symbol in
 * them (and of `alsoSymbols`), and each position's actions (TP/SL, isolated margin, close, leverage). One composition, so both pages
 * agree on what a position offers
 */
export function useAccountRows(connected: boolean, alsoSymbols: readonly string[] = []) {
  const portfolio = usePortfolio(connected, PORTFOLIO_POLL_MS);
  const orders = useOpenOrders(connected, PORTFOLIO_POLL_MS);
  const unknown = useUnresolvedOrders(connected, PORTFOLIO_POLL_MS);
  const protections = useEntryProtections(connected, PORTFOLIO_POLL_MS);
  // An unknown order just resolved: if it was placed, the open orders list must show it now
  const queryClient = useQueryClient();
  const unknownCount = unknown.data?.length ?? 0;
  const lastUnknownCount = useRef(unknownCount);
  useEffect(() => {
    if (unknownCount < lastUnknownCount.current)
      void queryClient.invalidateQueries({ queryKey: orderKeys.open() });
    lastUnknownCount.current = unknownCount;
  }, [unknownCount, queryClient]);

  const positionSymbols = useMemo(
    () => (portfolio.data?.positions ?? []).map((p) => p.symbol),
    [portfolio.data],
  );
  const marks = useLiveMarkPrices(positionSymbols);
  // One snapshot, re-marked as one: the cards, the positions, the allocation and the balances never disagree
  const shown = useMemo(
    () => (portfolio.data ? remarkPortfolio(portfolio.data, marks) : undefined),
    [portfolio.data, marks],
  );
  const alsoKey = alsoSymbols.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `alsoKey` stands for the list's content
  const symbols = useMemo(() => {
    const all = new Set<string>(alsoSymbols);
    for (const p of portfolio.data?.positions ?? []) all.add(p.symbol);
    for (const o of orders.data ?? []) all.add(o.symbol);
    return [...all].filter((s) => SYMBOL.test(s)).sort();
  }, [portfolio.data, orders.data, alsoKey]);
  const info = useSymbolsInfo(symbols, connected);
  const infoKey = [...info.keys()].join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `infoKey` stands for the map's content (a new Map each render)
  const infoOf = useCallback((symbol: string) => info.get(symbol), [infoKey]);
  const openOrders = orders.data;
  const renderClose = useCallback(
    (position: FuturesPosition) => (
      <div className="db:flex db:items-center db:justify-end db:gap-1">
        <ProtectionAction position={position} info={infoOf(position.symbol)} orders={openOrders ?? []} />
        <PositionMarginAction position={position} />
        <CloseActions position={position} info={infoOf(position.symbol)} />
      </div>
    ),
    [infoOf, openOrders],
  );
  const renderLeverage = useCallback(
    (position: FuturesPosition, leverage: number | null) => (
      <LeverageAction position={position} leverage={leverage} />
    ),
    [],
  );
  return { portfolio, shown, orders, unknown, protections, infoOf, renderClose, renderLeverage };
}
