import '../../styles.css';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { useParams } from '@kestrel/shared-runtime/router';
import { EmptyState } from '@kestrel/ui';

export default function AgentPage() {
  const { agentId } = useParams();
  return (
    <RemotePage remote="bots" title="AI agent" description={`Agent ${agentId}`}>
      <EmptyState
        title="No activity for this agent yet"
        description="The agent's status, its decisions and its profit and loss will show here."
      />
    </RemotePage>
  );
}
