import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { EmptyState } from '@kestrel/ui';

export default function ActiveBotsPage() {
  return (
    <RemotePage remote="bots" title="Active bots">
      <EmptyState
        title="No bots running"
        description="Bots you start will appear here with their open position and profit and loss."
      />
    </RemotePage>
  );
}
