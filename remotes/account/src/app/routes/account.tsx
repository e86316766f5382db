import { RemotePage } from '../../components/remote-page';

export default function AccountPage() {
  return <RemotePage title="Account" />;
}
