import { RemoteSlot } from '@kestrel/shared-runtime/federation';
import { RemotePage } from '../../components/remote-page';

export default function SettingsPage() {
  return (
    <RemotePage title="Settings">
      {/* Composed through the federation runtime, never by importing the other remote's source */}
      <RemoteSlot remote="exchange_connect" module="./ExchangeConnections" title="Exchange connections" />
    </RemotePage>
  );
}
