import { useExchangesLoading, useSession } from '@kestrel/shared-runtime/react';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { FullScreenSpinner } from '../full-screen-spinner';

/** Where a signed-out visitor was going, carried to / and back after sign-in */
export type ReturnTo = { from?: { pathname: string; search: string; hash: string } };

/**
 * Spec §2, protected route behaviour: `Loading...` while auth loads; signed-out visitors go to / with their
 * location; `Initializing exchanges...` while the exchange state loads.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const exchangesLoading = useExchangesLoading();
  const location = useLocation();
  if (session.status === 'loading') return <FullScreenSpinner label="Loading..." />;
  if (session.status !== 'signed-in') {
    const state: ReturnTo = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to="/" replace state={state} />;
  }
  if (exchangesLoading) return <FullScreenSpinner label="Initializing exchanges..." />;
  return children;
}
