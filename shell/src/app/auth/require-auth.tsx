import type { SessionState } from '@kestrel/shared-runtime';
import { loadRemoteComponent } from '@kestrel/shared-runtime/federation';
import { useExchangesLoading, useSession } from '@kestrel/shared-runtime/react';
import { Navigate, useLocation } from '@kestrel/shared-runtime/router';
import { type ReactNode, useEffect } from 'react';
import { FullScreenSpinner } from '../full-screen-spinner';
import type { PageRoute } from '../paths';
import { routeCode } from '../route-code';

/** Where a signed-out visitor was going, carried to / and back after sign-in */
export type ReturnTo = { from?: { pathname: string; search: string; hash: string } };

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

/**
 * Spec §2: after sign-in the dashboard, the sidebar and the top bar are loaded ahead of time, so the first
 * signed-in page appears without waiting for code (and a deep link's page, from the page's start: bootstrap.tsx).
 * Failures are ignored here: the page's own slot reports them.
 */
export function preloadSignedInArea(
  load: typeof loadRemoteComponent = loadRemoteComponent,
  loadLayout: () => Promise<unknown> = routeCode.protectedLayout,
  page: Pick<PageRoute, 'remote' | 'module'> = { remote: 'dashboard', module: './DashboardPage' },
): Promise<void> {
  return Promise.allSettled([loadLayout(), load(page.remote, page.module)]).then(() => undefined);
}

/** Starts the preload once the visitor is signed in (on the landing page, while they are still there) */
export function usePreloadWhenSignedIn(status: SessionState['status']) {
  useEffect(() => {
    if (status === 'signed-in') void preloadSignedInArea();
  }, [status]);
}
