import { RemoteSlot } from '@kestrel/shared-runtime/federation';
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from '@kestrel/shared-runtime/router';
import { FullScreenSpinner } from './full-screen-spinner';
import { remotePages } from './paths';
import { RouteProgressBar } from './progress/route-progress-bar';
import { loadedRouteCode, routeCode } from './route-code';
import { RouterErrorPage } from './routes/router-error';

function RootLayout() {
  return (
    <>
      <RouteProgressBar />
      <Outlet />
    </>
  );
}

/** Built when the router is made: the landing page may be loaded by then (route-code.ts) */
const appRoutes = (): RouteObject[] => [
  {
    element: <RootLayout />,
    errorElement: <RouterErrorPage />,
    // Shown while the first route's code loads (a deep link straight into a signed-in page)
    hydrateFallbackElement: <FullScreenSpinner label="Loading..." />,
    children: [
      // Lazy too: the sign-in and sign-up forms are no part of a signed-in page (route-code.ts: loaded early)
      loadedRouteCode.landing
        ? { path: '/', Component: loadedRouteCode.landing.LandingPage }
        : { path: '/', lazy: async () => ({ Component: (await routeCode.landing()).LandingPage }) },
      {
        path: '/onboarding',
        lazy: async () => ({ Component: (await routeCode.onboarding()).OnboardingPage }),
      },
      {
        // Loaded on first use, so the public pages do not pay for the layout (and its tooltips)
        lazy: async () => ({ Component: (await routeCode.protectedLayout()).ProtectedLayout }),
        children: remotePages.map((page) => ({
          path: page.path,
          // key: a new slot per page, so one page's failure or retry never leaks into the next
          element: (
            <RemoteSlot key={page.path} remote={page.remote} module={page.module} title={page.title} />
          ),
        })),
      },
      // Spec §2: any unknown path redirects to /
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes());
}
