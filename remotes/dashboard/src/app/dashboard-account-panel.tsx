import { Spinner } from '@kestrel/ui';
import { CardPanel } from '../components/card-panel';
import { EntryProtections } from '../features/orders/components/entry-protections';
import { OpenOrdersTable } from '../features/orders/components/open-orders-table';
import { PositionsTable } from '../features/portfolio/components/positions-table';
import { useAccountRows } from './account-rows';

/**
 * The account's positions and open orders under the dashboard's chart, with the same actions as /portfolio
 * (TP/SL, close all or a part, leverage, cancel). Loaded once an exchange is connected (the route lazy-loads it)
 */
export default function DashboardAccountPanel({ symbol }: { symbol: string }) {
  const { portfolio, shown, orders, unknown, protections, infoOf, renderClose, renderLeverage } =
    useAccountRows(true, [symbol]);
  return (
    <div className="db:flex db:min-w-0 db:flex-col db:gap-4">
      <CardPanel id="dashboard-positions-title" title="Positions">
        {shown ? (
          <PositionsTable
            positions={shown.positions}
            infoOf={infoOf}
            renderClose={renderClose}
            renderLeverage={renderLeverage}
          />
        ) : portfolio.isError ? (
          <p role="alert" className="db:text-sm db:text-destructive">
            Could not load your positions: {portfolio.error.message}
          </p>
        ) : (
          <Spinner label="Loading your positions…" />
        )}
      </CardPanel>
      <CardPanel id="dashboard-orders-title" title="Open orders">
        {orders.isPending ? (
          <Spinner label="Loading open orders…" />
        ) : orders.isError ? (
          <p role="alert" className="db:text-sm db:text-destructive">
            Could not load your open orders: {orders.error.message}
          </p>
        ) : (
          <>
            <OpenOrdersTable orders={orders.data} infoOf={infoOf} unknown={unknown.data} />
            <EntryProtections protections={protections.data} infoOf={infoOf} />
          </>
        )}
      </CardPanel>
    </div>
  );
}
