import { RemoteSlot } from '@kestrel/shared-runtime/federation';
import { useExchangeConnections, useSession } from '@kestrel/shared-runtime/react';
import { useEffect, useState } from 'react';

/** Spec §4: the connect-exchange modal opens by itself this long after sign-in when no exchange is connected */
export const CONNECT_MODAL_AUTO_OPEN_MS = 1000;

/** Per tab and per user: "Skip for Now" holds until sign-out, so a reload does not ask again */
const skippedKey = (userId: string) => `kestrel-connect-prompt-skipped:${userId}`;

function wasSkipped(userId: string): boolean {
  try {
    return sessionStorage.getItem(skippedKey(userId)) === '1';
  } catch {
    return false;
  }
}

/** Forget every "Skip for Now" of this tab; the next sign-in prompts again */
export function forgetConnectPromptSkips(): void {
  try {
    for (const key of Object.keys(sessionStorage)) {
      if (key.startsWith('kestrel-connect-prompt-skipped:')) sessionStorage.removeItem(key);
    }
  } catch {
    // storage blocked: nothing was remembered either
  }
}

/**
 * Opens the exchange-connect remote's modal 1 s after sign-in when nothing is connected. If that remote is
 * missing, nothing opens and nothing breaks (a quiet slot).
 */
export function ConnectExchangePrompt() {
  const session = useSession();
  const connections = useExchangeConnections();
  return (
    <AutoOpenConnectModal
      userId={session.user?.id ?? ''}
      anyConnected={Object.values(connections).some((c) => c.status === 'connected')}
    />
  );
}

/** The rule itself, apart from where its inputs come from */
export function AutoOpenConnectModal({ userId, anyConnected }: { userId: string; anyConnected: boolean }) {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (anyConnected || !userId || wasSkipped(userId)) return;
    const timer = setTimeout(() => setOpen(true), CONNECT_MODAL_AUTO_OPEN_MS);
    return () => clearTimeout(timer);
  }, [anyConnected, userId]);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next && userId) {
      try {
        sessionStorage.setItem(skippedKey(userId), '1');
      } catch {
        // not remembered: the prompt may come back after a reload
      }
    }
  };

  if (!open) return null;
  return (
    <RemoteSlot
      remote="exchange_connect"
      module="./ConnectExchangeModal"
      title="Connect Exchange"
      quiet
      props={{ open, onOpenChange }}
    />
  );
}
