import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { EmptyState } from '@kestrel/ui';

export default function PortfolioPage() {
  return (
    <RemotePage remote="dashboard" title="Portfolio">
      <EmptyState
        title="No positions yet"
        description="Your futures wallet balance and open positions will be listed here."
      />
    </RemotePage>
  );
}
