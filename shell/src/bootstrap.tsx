import { initKestrelRuntime, loadRuntimeConfig } from '@kestrel/shared-runtime';
import { createRoot } from 'react-dom/client';
import { AppFrame } from './app/app-frame';
import { preloadSignedInArea } from './app/auth/preload-signed-in';
import type { LeaveLanding } from './app/cold-landing';
import { prefetchFirstReads } from './app/first-reads';
import { pageAt } from './app/paths';
import { remotesReady } from './app/remotes';
import { routeCode } from './app/route-code';
import { StartupError } from './app/startup-error';
import { configResponse, configUrl } from './config-request';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

// On / the landing is shown without the router (cold-landing.tsx); any other page loads the router's app now,
// beside config.json
const landing = location.pathname === '/';
const appCode = () => import('./app/app');
const appLoading = landing ? undefined : appCode();

// A deep link into a signed-in page: its layout's code loads now, not once the router has run (a signed-out
// visitor is sent to / by that layout, so it loads either way)
const page = pageAt(location.pathname);
if (page) routeCode.protectedLayout().catch(() => undefined);

/** The router's app takes over from the cold landing once the page it leaves for has its code (nothing blank) */
let leaving = false;
const leave: LeaveLanding = (to, history) => {
  if (leaving) return;
  leaving = true;
  if (history === 'push') window.history.pushState(null, '', to);
  if (history === 'replace') window.history.replaceState(null, '', to);
  void appCode()
    .then(async ({ RoutedApp, startAppRouter }) => {
      await remotesReady();
      const router = await startAppRouter();
      // Under the same AppFrame: only the page changes, the notice areas and their toasts stay
      root.render(
        <AppFrame>
          <RoutedApp router={router} />
        </AppFrame>,
      );
    })
    .catch((error: unknown) => root.render(<StartupError error={error} />));
};

try {
  // Run-time config: the same build runs anywhere; remote URLs can change without rebuilding the shell
  // On /, with the landing page's code (loading since the page started), so the first render is that page
  // (if the landing's code fails to load, the router's app shows / and its error)
  const [config, landingCode] = await Promise.all([
    loadRuntimeConfig(configUrl, () => configResponse),
    landing ? routeCode.landing().catch(() => undefined) : undefined,
  ]);
  // The router's app shows remotes: registered before it renders (the landing registers them when it leaves)
  const remotes = landing ? undefined : remotesReady();
  // One runtime for the page: the shell and every remote read the session, socket and state through it
  const runtime = initKestrelRuntime(config);
  void runtime.start();
  // ...and, for a visitor whose stored session is restored, the page's remote, while the session is confirmed and
  // the exchanges load, instead of once the page's slot is on screen
  if (page && runtime.session.state.status === 'signed-in')
    void preloadSignedInArea(undefined, undefined, page);
  // ...and the reads its first figures come from, so they are on their way before its code is
  prefetchFirstReads(runtime, location);
  // The theme lives in the runtime (one store for the top-bar toggle and /settings), created with it above
  if (landingCode) {
    root.render(
      <AppFrame>
        <landingCode.ColdLanding Page={landingCode.LandingPage} leave={leave} />
      </AppFrame>,
    );
  } else {
    const [{ RoutedApp }] = await Promise.all([appLoading ?? appCode(), remotes ?? remotesReady()]);
    root.render(
      <AppFrame>
        <RoutedApp />
      </AppFrame>,
    );
  }
} catch (error) {
  root.render(<StartupError error={error} />);
}
