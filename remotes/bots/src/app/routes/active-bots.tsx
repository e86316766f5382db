import { RemotePage } from '../../components/remote-page';

export default function ActiveBotsPage() {
  return <RemotePage title="Active bots" />;
}
