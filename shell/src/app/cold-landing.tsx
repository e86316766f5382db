import { type ComponentType, useEffect, useMemo } from 'react';
import type { ReturnTo } from './auth/preload-signed-in';
import { PathProgressBar } from './progress/path-progress-bar';
import { type LandingNavigation, LandingNavigationProvider, LeavingLink } from './routes/landing-navigation';

/** How the cold landing hands over: `push` or `replace` puts `to` in the history first; `none`: it is there already */
export type LeaveLanding = (to: string, history: 'push' | 'replace' | 'none') => void;

/**
 * Where a visitor sent here was going: the router keeps a location's state in the history entry (`usr`), so a
 * reload of / after being sent here still has it, as the router would read it
 */
function fromOfHistory(): ReturnTo['from'] {
  const state: unknown = window.history.state;
  if (typeof state !== 'object' || state === null || !('usr' in state)) return undefined;
  const usr = (state as { usr: unknown }).usr;
  if (typeof usr !== 'object' || usr === null || !('from' in usr)) return undefined;
  const from = (usr as ReturnTo).from;
  return typeof from?.pathname === 'string' ? from : undefined;
}

/**
 * The landing page opened cold (a visit to /), rendered without the router: react-router is ~30 KB gzip that a
 * visitor who reads the page or signs in does not need until they leave it. Leaving (signing in, a link, the browser's
 * back or forward button) calls `leave`, which starts the router at the new address. As in the router: the top
 * progress bar runs as the page appears.
 */
export function ColdLanding({ Page, leave }: { Page: ComponentType; leave: LeaveLanding }) {
  const navigation = useMemo<LandingNavigation>(
    () => ({
      from: fromOfHistory(),
      replaceWith: (to) => leave(to, 'replace'),
      push: (to) => leave(to, 'push'),
      Link: LeavingLink,
    }),
    [leave],
  );
  // Back or forward to an entry of this page's history that is not the landing
  useEffect(() => {
    const onPop = () => {
      if (location.pathname !== '/') leave(`${location.pathname}${location.search}${location.hash}`, 'none');
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [leave]);
  return (
    <LandingNavigationProvider value={navigation}>
      <PathProgressBar pathname="/" />
      <Page />
    </LandingNavigationProvider>
  );
}
