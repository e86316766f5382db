import { RouterProvider } from '@kestrel/shared-runtime/router';
import { useState } from 'react';
import { type AppRouter, createAppRouter } from './router';

/**
 * The app's pages, through its router (made here unless given one: the cold landing starts it at the page it
 * leaves for). Rendered inside `AppFrame`.
 */
export function RoutedApp({ router: given }: { router?: AppRouter }) {
  const [router] = useState(() => given ?? createAppRouter());
  return <RouterProvider router={router} />;
}

/**
 * A router at the current address, once it has its first page's code: rendered then, it shows that page at once
 * (not the router's loading screen) while what was on screen stays until it does
 */
export function startAppRouter(): Promise<AppRouter> {
  const router = createAppRouter();
  if (router.state.initialized) return Promise.resolve(router);
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve(router);
    });
  });
}
