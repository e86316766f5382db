import { RemotePage } from '../../components/remote-page';

export default function AnalyticsPage() {
  return <RemotePage title="Analytics" />;
}
