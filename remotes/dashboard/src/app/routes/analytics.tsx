import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { EmptyState } from '@kestrel/ui';

export default function AnalyticsPage() {
  return (
    <RemotePage remote="dashboard" title="Analytics">
      <EmptyState
        title="No history to analyse yet"
        description="Your equity, returns and drawdown over time will be charted here from your recorded account history."
      />
    </RemotePage>
  );
}
