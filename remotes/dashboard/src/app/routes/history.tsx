import '../../styles.css';
import { ConnectExchangeButton } from '@kestrel/shared-runtime/federation';
import { RemotePage, useExchangeConnections, useExchangesLoading } from '@kestrel/shared-runtime/react';
import { EmptyState, Spinner } from '@kestrel/ui';
import type { ReactNode } from 'react';
import { HistoryView } from '../../features/history/components/history-view';

/**
 * The account's trading history: trades, orders and income, filtered, sorted and paged by the server from what
 * the account recorder imported, exported as CSV. Without a connected exchange there is no history to show: the
 * page says so and offers the connect modal
 */
export default function HistoryPage() {
  const connections = useExchangeConnections();
  const loading = useExchangesLoading();
  const connected = Object.values(connections).some((c) => c.status === 'connected');

  let body: ReactNode;
  if (connected) body = <HistoryView />;
  else if (loading) body = <Spinner label="Loading your exchange connection…" className="db:py-12" />;
  else {
    body = (
      <EmptyState
        title="No exchange connected"
        description="Connect your Binance account to see its trades, orders and income here."
        action={<ConnectExchangeButton />}
      />
    );
  }
  return (
    <RemotePage remote="dashboard" title="Trading history">
      {body}
    </RemotePage>
  );
}
