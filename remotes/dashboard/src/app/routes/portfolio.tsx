import '../../styles.css';
import type { FuturesPosition } from '@kestrel/contracts';
import { ApiError } from '@kestrel/shared-runtime';
import { ConnectExchangeButton } from '@kestrel/shared-runtime/federation';
import {
  RemotePage,
  useExchangeConnections,
  useLiveMarkPrices,
  useLiveStatus,
} from '@kestrel/shared-runtime/react';
import { Badge, Button, Card, CardContent, EmptyState, Spinner } from '@kestrel/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSymbolsInfo } from '../../api/get-symbol-info';
import { useCreateOrder } from '../../features/orders/api/create-order';
import { useOpenOrders } from '../../features/orders/api/get-open-orders';
import { useUnresolvedOrders } from '../../features/orders/api/get-unresolved-orders';
import { orderKeys } from '../../features/orders/api/order-keys';
import { OpenOrdersTable } from '../../features/orders/components/open-orders-table';
import { OrderTicket } from '../../features/orders/components/order-ticket';
import { CloseActions, LeverageAction } from '../../features/orders/components/position-actions';
import { useAccountInfo } from '../../features/portfolio/api/get-account-info';
import { usePortfolio } from '../../features/portfolio/api/get-portfolio';
import { AccountFigures, BalancesTable } from '../../features/portfolio/components/account-summary';
import { AllocationChart } from '../../features/portfolio/components/allocation-chart';
import { PositionsTable } from '../../features/portfolio/components/positions-table';
import { marginAllocation, remark, remarkAccount } from '../../features/portfolio/lib/position-figures';

/**
 * Liquidation prices and margins move with the mark price, which no account notice reports: the snapshot is read
 * this often (mark and PnL between two reads come from the socket's mark price pushes)
 */
export const PORTFOLIO_POLL_MS = 5_000;
/** Balances per asset and the allocation move with fills (which the socket and this page's orders invalidate) */
export const ALLOCATION_POLL_MS = 30_000;
const DEFAULT_SYMBOL = 'BTCUSDT';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="db:flex db:min-w-0 db:flex-col db:gap-3">
      <h2 id={id} className="db:text-lg db:font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function LoadError({ error, retry }: { error: Error; retry: () => void }) {
  return (
    <div
      role="alert"
      className="db:flex db:flex-col db:items-start db:gap-2 db:rounded-xl db:border db:border-destructive db:p-4"
    >
      <p className="db:text-sm db:text-destructive">Could not load your account: {error.message}</p>
      <Button size="sm" variant="outline" onClick={retry}>
        Retry
      </Button>
    </div>
  );
}

function NotConnected() {
  return (
    <EmptyState
      title="No exchange connected"
      description="Connect your Binance futures account to see your balances, positions and open orders and to trade from here."
      action={<ConnectExchangeButton />}
    />
  );
}

export default function PortfolioPage() {
  const connections = useExchangeConnections();
  const connected = Object.values(connections).some((c) => c.status === 'connected');
  const account = useAccountInfo(connected, PORTFOLIO_POLL_MS);
  const orders = useOpenOrders(connected, PORTFOLIO_POLL_MS);
  const unknown = useUnresolvedOrders(connected, PORTFOLIO_POLL_MS);
  // An unknown order just resolved: if it was placed, the open orders list must show it now
  const queryClient = useQueryClient();
  const unknownCount = unknown.data?.length ?? 0;
  const lastUnknownCount = useRef(unknownCount);
  useEffect(() => {
    if (unknownCount < lastUnknownCount.current)
      void queryClient.invalidateQueries({ queryKey: orderKeys.open() });
    lastUnknownCount.current = unknownCount;
  }, [unknownCount, queryClient]);
  const portfolio = usePortfolio(connected, ALLOCATION_POLL_MS);
  const create = useCreateOrder();
  const [ticketSymbol, setTicketSymbol] = useState<string | null>(null);

  const live = useLiveStatus();
  const positionSymbols = useMemo(() => (account.data?.positions ?? []).map((p) => p.symbol), [account.data]);
  const marks = useLiveMarkPrices(positionSymbols);
  const shown = useMemo(() => {
    if (!account.data) return undefined;
    const remarked = account.data.positions.map((p) => {
      const push = marks.get(p.symbol);
      return push ? remark(p, push.markPrice) : p;
    });
    return remarkAccount(account.data, remarked);
  }, [account.data, marks]);
  const positions = account.data?.positions ?? [];
  const defaultSymbol = positions[0]?.symbol ?? DEFAULT_SYMBOL;
  const symbols = useMemo(() => {
    const all = new Set<string>([ticketSymbol ?? defaultSymbol]);
    for (const p of account.data?.positions ?? []) all.add(p.symbol);
    for (const o of orders.data ?? []) all.add(o.symbol);
    return [...all].filter((s) => /^[A-Z0-9]{3,20}$/.test(s)).sort();
  }, [account.data, orders.data, ticketSymbol, defaultSymbol]);
  const info = useSymbolsInfo(symbols, connected);
  const infoKey = [...info.keys()].join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `infoKey` stands for the map's content (a new Map each render)
  const infoOf = useCallback((symbol: string) => info.get(symbol), [infoKey]);
  const renderClose = useCallback(
    (position: FuturesPosition) => <CloseActions position={position} info={infoOf(position.symbol)} />,
    [infoOf],
  );
  const renderLeverage = useCallback(
    (position: FuturesPosition, leverage: number | null) => (
      <LeverageAction position={position} leverage={leverage} />
    ),
    [],
  );

  const keysMissing = account.error instanceof ApiError && account.error.code === 'CREDENTIALS_NOT_FOUND';
  let body: ReactNode;
  if (!connected || keysMissing) {
    body = <NotConnected />;
  } else if (!shown) {
    body = account.isError ? (
      <LoadError error={account.error} retry={() => account.refetch()} />
    ) : (
      <Spinner label="Loading your account…" />
    );
  } else {
    const data = shown;
    body = (
      <>
        {account.isError && (
          // The last snapshot stays on screen, said to be old: a blank page would hide open positions
          <p role="alert" className="db:text-sm db:text-destructive">
            Could not refresh your account ({account.error.message}); showing the last figures read.
          </p>
        )}
        <AccountFigures account={data} />
        <Section id="portfolio-positions" title="Positions">
          <PositionsTable
            positions={data.positions}
            infoOf={infoOf}
            renderClose={renderClose}
            renderLeverage={renderLeverage}
          />
        </Section>
        <div className="db:grid db:grid-cols-1 db:gap-6 db:lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="db:flex db:min-w-0 db:flex-col db:gap-6">
            <Section id="portfolio-orders" title="Open orders">
              {orders.isPending ? (
                <Spinner label="Loading open orders…" />
              ) : orders.isError ? (
                <LoadError error={orders.error} retry={() => orders.refetch()} />
              ) : (
                <OpenOrdersTable orders={orders.data} infoOf={infoOf} unknown={unknown.data} />
              )}
            </Section>
          </div>
          <div className="db:flex db:min-w-0 db:flex-col db:gap-6">
            <OrderTicket
              defaultSymbol={defaultSymbol}
              infoOf={infoOf}
              onSymbolChange={setTicketSymbol}
              place={(order) => create.mutateAsync(order)}
            />
            <Card>
              <CardContent>
                {portfolio.isPending ? (
                  <Spinner label="Loading the allocation…" />
                ) : portfolio.isError ? (
                  <LoadError error={portfolio.error} retry={() => portfolio.refetch()} />
                ) : (
                  <AllocationChart
                    slices={marginAllocation(portfolio.data)}
                    allocation={portfolio.data.allocation}
                  />
                )}
              </CardContent>
            </Card>
          </div>
        </div>
        <Section id="portfolio-balances" title="Balances">
          {portfolio.isPending ? (
            <Spinner label="Loading balances…" />
          ) : portfolio.isError ? (
            <LoadError error={portfolio.error} retry={() => portfolio.refetch()} />
          ) : (
            <BalancesTable assets={portfolio.data.assets} />
          )}
        </Section>
      </>
    );
  }

  return (
    <RemotePage
      remote="dashboard"
      title="Portfolio"
      description="Balances, positions and open orders of your Binance futures account."
      actions={
        connected &&
        live === 'paused' && (
          <Badge variant="warning" role="status">
            Live data paused: refreshing every 5 s
          </Badge>
        )
      }
    >
      {body}
    </RemotePage>
  );
}
