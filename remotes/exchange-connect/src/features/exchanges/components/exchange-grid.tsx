import type { ExchangeId } from '@kestrel/contracts';
import { runtimeInstanceId } from '@kestrel/shared-runtime';
import { useExchangeConnections, useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { ExchangeCard } from './exchange-card';
import { KeySetupFacts } from './key-setup';

/** One card per catalogue entry, with the connection state and disconnect from the shared runtime */
export function ExchangeGrid({ onConnect }: { onConnect: (id: ExchangeId) => void }) {
  const { exchanges } = useKestrelRuntime();
  const connections = useExchangeConnections();
  return (
    <div
      data-remote="exchange_connect"
      data-runtime-instance={runtimeInstanceId}
      className="xc:grid xc:grid-cols-1 xc:gap-4 xc:sm:grid-cols-2"
    >
      {exchanges.catalogue.map((exchange) => (
        <ExchangeCard
          key={exchange.id}
          exchange={exchange}
          connection={connections[exchange.id]}
          onConnect={() => onConnect(exchange.id)}
          keyDetails={exchange.id === 'binance' ? <KeySetupFacts /> : undefined}
          onDisconnect={() => void exchanges.disconnect(exchange.id)}
          onCheckConnection={async () => {
            const result = await exchanges.checkConnectivity(exchange.id);
            return result.success ? result.message : null;
          }}
        />
      ))}
    </div>
  );
}
