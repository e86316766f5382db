import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { EmptyState } from '@kestrel/ui';

export default function HistoryPage() {
  return (
    <RemotePage remote="dashboard" title="Trading history">
      <EmptyState
        title="No trades yet"
        description="Your filled orders and trades will be listed here, newest first."
      />
    </RemotePage>
  );
}
