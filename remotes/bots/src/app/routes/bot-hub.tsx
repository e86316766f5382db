import { RemotePage } from '../../components/remote-page';

export default function BotHubPage() {
  return <RemotePage title="Bot hub" />;
}
