import '../../styles.css';
import { RemoteSlot } from '@kestrel/shared-runtime/federation';
import { RemotePage } from '@kestrel/shared-runtime/react';

export default function SettingsPage() {
  return (
    <RemotePage remote="account" title="Settings">
      <section aria-labelledby="settings-exchanges" className="ac:flex ac:flex-col ac:gap-3">
        <h2 id="settings-exchanges" className="ac:text-lg ac:font-semibold">
          Exchange connections
        </h2>
        {/* Composed through the federation runtime, never by importing the other remote's source */}
        <RemoteSlot remote="exchange_connect" module="./ExchangeConnections" title="Exchange connections" />
      </section>
    </RemotePage>
  );
}
