import type { SessionState } from '@kestrel/shared-runtime';
import type { RemoteComponentLoader } from '@kestrel/shared-runtime/federation';
import { useEffect } from 'react';
import type { PageRoute } from '../paths';
import { remotesReady } from '../remotes';
import { routeCode } from '../route-code';

/** Where a signed-out visitor was going, carried to / and back after sign-in */
export type ReturnTo = { from?: { pathname: string; search: string; hash: string } };

/**
 * Spec §2: after sign-in the dashboard, the sidebar and the top bar are loaded ahead of time, so the first
 * signed-in page appears without waiting for code (and a deep link's page, from the page's start: bootstrap.tsx).
 * Failures are ignored here: the page's own slot reports them.
 */
export function preloadSignedInArea(
  load: RemoteComponentLoader = (remote, module) =>
    remotesReady().then((federation) => federation.loadRemoteComponent(remote, module)),
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
