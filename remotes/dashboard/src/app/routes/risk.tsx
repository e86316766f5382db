import { RemotePage } from '../../components/remote-page';

export default function RiskPage() {
  return <RemotePage title="Risk management" />;
}
