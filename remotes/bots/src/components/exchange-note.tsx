import { ConnectExchangeButton } from '@kestrel/shared-runtime/federation';
import { useExchangeConnections, useExchangesLoading } from '@kestrel/shared-runtime/react';
import type { ReactNode } from 'react';

/** True once an exchange account is connected; null while the connections load */
export function useExchangeConnected(): boolean | null {
  const connections = useExchangeConnections();
  const loading = useExchangesLoading();
  if (Object.values(connections).some((c) => c.status === 'connected')) return true;
  return loading ? null : false;
}

/**
 * The bots pages' no-exchange state: paper bots need no keys (they trade on public prices), live bots do; says so
 * with the button that opens the connect modal, without hiding what works without keys
 */
export function NoExchangeNote({ children }: { children?: ReactNode }) {
  return (
    <div
      role="note"
      aria-label="No exchange connected"
      className="bt:flex bt:flex-wrap bt:items-center bt:justify-between bt:gap-3 bt:rounded-xl bt:border bt:border-border bt:bg-muted/40 bt:p-3 bt:text-sm"
    >
      <p className="bt:min-w-0 bt:flex-1">
        <strong className="bt:font-semibold">No exchange connected.</strong>{' '}
        {children ?? 'Paper bots run on public prices without keys; live bots need your Binance account.'}
      </p>
      <ConnectExchangeButton />
    </div>
  );
}
