import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { EmptyState } from '@kestrel/ui';

export default function RiskPage() {
  return (
    <RemotePage remote="dashboard" title="Risk management">
      <EmptyState
        title="No exposure yet"
        description="The margin, leverage and liquidation distance of your open positions will show here."
      />
    </RemotePage>
  );
}
