import { RemotePage } from '../../components/remote-page';

export default function HistoryPage() {
  return <RemotePage title="Trading history" />;
}
