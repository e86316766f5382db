import { useParams } from '@kestrel/shared-runtime/router';
import { RemotePage } from '../../components/remote-page';

export default function AgentPage() {
  const { agentId } = useParams();
  return (
    <RemotePage title="AI agent">
      <p className="bt:text-sm">Agent {agentId}</p>
    </RemotePage>
  );
}
