import { Button } from '@kestrel/ui';
import { useState } from 'react';
import ConnectExchangeModal from '../../features/exchanges/components/connect-exchange-modal';
import ExchangeConnections from '../../features/exchanges/components/exchange-connections';

/** Standalone page only: both exposed components side by side for the team's own work */
export default function StandaloneHome() {
  const [open, setOpen] = useState(false);
  return (
    <div className="xc:flex xc:flex-col xc:gap-6">
      <Button className="xc:w-fit" onClick={() => setOpen(true)}>
        Open the connect modal
      </Button>
      <ExchangeConnections />
      <ConnectExchangeModal open={open} onOpenChange={setOpen} />
    </div>
  );
}
