import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { EmptyState } from '@kestrel/ui';

export default function CreateBotPage() {
  return (
    <RemotePage remote="bots" title="Create bot">
      <EmptyState
        title="Creating bots is not available yet"
        description="Here you will choose a strategy, its parameters and the exchange it trades on. Meanwhile, try strategies on past data in Backtesting."
      />
    </RemotePage>
  );
}
