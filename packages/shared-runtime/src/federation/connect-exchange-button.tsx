import { Button } from '@kestrel/ui';
import { useState } from 'react';
import { RemoteSlot } from './remote-slot';

/**
 * Opens the exchange-connect remote's modal (through the federation runtime, as the shell's prompt does): the one
 * action of every figure that needs an exchange account (the bots' and the dashboard's pages). If that remote is
 * down, nothing opens and nothing breaks.
 */
export function ConnectExchangeButton({ label = 'Connect exchange' }: { label?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>{label}</Button>
      {open && (
        <RemoteSlot
          remote="exchange_connect"
          module="./ConnectExchangeModal"
          title="Connect Exchange"
          quiet
          props={{ open, onOpenChange: setOpen }}
        />
      )}
    </>
  );
}
