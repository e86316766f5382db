import { RemotePage } from '../../components/remote-page';

export default function DashboardPage() {
  return <RemotePage title="Dashboard" />;
}
