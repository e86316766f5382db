import '../../styles.css';
import { ApiError } from '@kestrel/shared-runtime';
import { ConnectExchangeButton } from '@kestrel/shared-runtime/federation';
import { RemotePage, useExchangeConnections, useLiveStatus } from '@kestrel/shared-runtime/react';
import { Badge, Button, Card, CardContent, EmptyState, Spinner } from '@kestrel/ui';
import { type ReactNode, useState } from 'react';
import { useCreateOrder } from '../../features/orders/api/create-order';
import { EntryProtections } from '../../features/orders/components/entry-protections';
import { OpenOrdersTable } from '../../features/orders/components/open-orders-table';
import { OrderTicket } from '../../features/orders/components/order-ticket';
import { AccountFigures, BalancesTable } from '../../features/portfolio/components/account-summary';
import { AllocationChart } from '../../features/portfolio/components/allocation-chart';
import { PositionsTable } from '../../features/portfolio/components/positions-table';
import { marginAllocation } from '../../features/portfolio/lib/position-figures';
import { useAccountRows } from '../account-rows';

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
  const [ticketSymbol, setTicketSymbol] = useState<string | null>(null);
  const { portfolio, shown, orders, unknown, protections, infoOf, renderClose, renderLeverage } =
    useAccountRows(connected, [ticketSymbol ?? DEFAULT_SYMBOL]);
  // The ticket starts on the first position's symbol (whose rules come with the positions)
  const defaultSymbol = portfolio.data?.positions[0]?.symbol ?? DEFAULT_SYMBOL;
  const create = useCreateOrder();
  const live = useLiveStatus();

  const keysMissing = portfolio.error instanceof ApiError && portfolio.error.code === 'CREDENTIALS_NOT_FOUND';
  let body: ReactNode;
  if (!connected || keysMissing) {
    body = <NotConnected />;
  } else if (!shown) {
    body = portfolio.isError ? (
      <LoadError error={portfolio.error} retry={() => portfolio.refetch()} />
    ) : (
      <Spinner label="Loading your account…" />
    );
  } else {
    const data = shown;
    body = (
      <>
        {portfolio.isError && (
          // The last snapshot stays on screen, said to be old: a blank page would hide open positions
          <p role="alert" className="db:text-sm db:text-destructive">
            Could not refresh your account ({portfolio.error.message}); showing the last figures read.
          </p>
        )}
        <AccountFigures totals={data.totals} />
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
                <>
                  <OpenOrdersTable orders={orders.data} infoOf={infoOf} unknown={unknown.data} />
                  <EntryProtections protections={protections.data} infoOf={infoOf} />
                </>
              )}
            </Section>
          </div>
          <div className="db:flex db:min-w-0 db:flex-col db:gap-6">
            <OrderTicket
              defaultSymbol={defaultSymbol}
              infoOf={infoOf}
              onSymbolChange={setTicketSymbol}
              place={(order) => create.mutateAsync(order)}
              availableMargin={data.totals.availableBalance}
            />
            <Card>
              <CardContent>
                <AllocationChart slices={marginAllocation(data)} allocation={data.allocation} />
              </CardContent>
            </Card>
          </div>
        </div>
        <Section id="portfolio-balances" title="Balances">
          <BalancesTable assets={data.assets} />
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
