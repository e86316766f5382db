import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { EmptyState } from '@kestrel/ui';

export default function DashboardPage() {
  return (
    <RemotePage remote="dashboard" title="Dashboard">
      <EmptyState
        title="No trading activity yet"
        description="Your balance, open positions, today's profit and loss and running bots will show here."
      />
    </RemotePage>
  );
}
