import { CONNECTION_STATUS_LABELS, type ConnectionStatus as Status } from '@kestrel/shared-runtime';
import { useExchangeConnections } from '@kestrel/shared-runtime/react';

const DOT: Record<Status, string> = {
  connected: 'sh:bg-success',
  connecting: 'sh:bg-warning',
  error: 'sh:bg-destructive',
  disconnected: 'sh:bg-muted-foreground',
};

/** The exchange connection's status with the spec's labels (Connected, Connecting..., Error, Disconnected) */
export function ConnectionStatus() {
  const { binance } = useExchangeConnections();
  return (
    <output className="sh:flex sh:items-center sh:gap-2 sh:text-sm" aria-live="polite">
      <span aria-hidden="true" className={`sh:size-2 sh:rounded-full ${DOT[binance.status]}`} />
      <span className="sh:hidden sh:md:inline">Binance:</span> {CONNECTION_STATUS_LABELS[binance.status]}
    </output>
  );
}
