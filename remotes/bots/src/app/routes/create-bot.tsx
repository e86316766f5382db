import { RemotePage } from '../../components/remote-page';

export default function CreateBotPage() {
  return <RemotePage title="Create bot" />;
}
