import '../../../styles.css';
import { useState } from 'react';
import ConnectExchangeModal from './connect-exchange-modal';
import { ExchangeGrid } from './exchange-grid';

/**
 * The exchange cards with connect and disconnect (settings). A card's Connect Exchange opens the connect modal
 * on that exchange's form.
 */
export default function ExchangeConnections() {
  const [connecting, setConnecting] = useState(false);
  return (
    <>
      <ExchangeGrid onConnect={(id) => id === 'binance' && setConnecting(true)} />
      <ConnectExchangeModal open={connecting} onOpenChange={setConnecting} initialStep="binance" />
    </>
  );
}
