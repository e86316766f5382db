import type { SessionState } from '@kestrel/shared-runtime';
import { useExchangesLoading, useSession } from '@kestrel/shared-runtime/react';
import { Navigate, useLocation } from '@kestrel/shared-runtime/router';
import type { ReactNode } from 'react';
import { FullScreenSpinner } from '../full-screen-spinner';
import type { ReturnTo } from './preload-signed-in';

// The landing page (no router on a cold visit) imports these from their own module; here for the signed-in side
export { preloadSignedInArea, type ReturnTo, usePreloadWhenSignedIn } from './preload-signed-in';

/** Spec §2 texts */
export const AUTH_LOADING_TEXT = 'Loading...';
export const EXCHANGES_LOADING_TEXT = 'Initializing exchanges...';

/**
 * Spec §2, protected route behaviour: `Loading...` while auth loads; signed-out visitors go to / with their
 * location; `Initializing exchanges...` while the exchange state loads.
 */
export function ProtectedGate({
  status,
  exchangesLoading,
  children,
}: {
  status: SessionState['status'];
  exchangesLoading: boolean;
  children: ReactNode;
}) {
  const location = useLocation();
  if (status === 'loading') return <FullScreenSpinner label={AUTH_LOADING_TEXT} />;
  if (status !== 'signed-in') {
    const state: ReturnTo = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to="/" replace state={state} />;
  }
  if (exchangesLoading) return <FullScreenSpinner label={EXCHANGES_LOADING_TEXT} />;
  return children;
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const exchangesLoading = useExchangesLoading();
  return (
    <ProtectedGate status={session.status} exchangesLoading={exchangesLoading}>
      {children}
    </ProtectedGate>
  );
}
