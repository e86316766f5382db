import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { EmptyState } from '@kestrel/ui';

export default function BotHubPage() {
  return (
    <RemotePage remote="bots" title="Bot hub">
      <EmptyState
        title="No bots yet"
        description="The bots you create will be listed here with their strategy and status."
      />
    </RemotePage>
  );
}
