import { initKestrelRuntime, loadRuntimeConfig } from '@kestrel/shared-runtime';
import { registerRemotesFromConfig } from '@kestrel/shared-runtime/federation';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadSignedInArea } from './app/auth/require-auth';
import { pageAt } from './app/paths';
import { routeCode } from './app/route-code';
import { StartupError } from './app/startup-error';
import { configResponse, configUrl } from './config-request';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element');
const root = createRoot(container);

// A deep link into a signed-in page: its layout's code loads now, not once the router has run (a signed-out
// visitor is sent to / by that layout, so it loads either way)
const page = pageAt(location.pathname);
if (page) routeCode.protectedLayout().catch(() => undefined);

try {
  // Run-time config: the same build runs anywhere; remote URLs can change without rebuilding the shell
  // On /, with the landing page's code (loading since the page started), so the first render is that page
  const [config] = await Promise.all([
    loadRuntimeConfig(configUrl, () => configResponse),
    location.pathname === '/' ? routeCode.landing().catch(() => undefined) : undefined,
  ]);
  registerRemotesFromConfig(config);
  // One runtime for the page: the shell and every remote read the session, socket and state through it
  const runtime = initKestrelRuntime(config);
  void runtime.start();
  // ...and, for a visitor whose stored session is restored, the page's remote, while the session is confirmed and
  // the exchanges load, instead of once the page's slot is on screen
  if (page && runtime.session.state.status === 'signed-in')
    void preloadSignedInArea(undefined, undefined, page);
  // The theme lives in the runtime (one store for the top-bar toggle and /settings), created with it above
  root.render(<App />);
} catch (error) {
  root.render(<StartupError error={error} />);
}
