import { RemoteSlot } from '@kestrel/shared-runtime/federation';
import {
  createBrowserRouter,
  Link,
  Navigate,
  Outlet,
  type RouteObject,
  useLocation,
  useNavigate,
} from '@kestrel/shared-runtime/router';
import { type ComponentType, useMemo } from 'react';
import type { ReturnTo } from './auth/preload-signed-in';
import { FullScreenSpinner } from './full-screen-spinner';
import { remotePages } from './paths';
import { RouteProgressBar } from './progress/route-progress-bar';
import { loadedRouteCode, routeCode } from './route-code';
import { type LandingNavigation, LandingNavigationProvider } from './routes/landing-navigation';
import { RouterErrorPage } from './routes/router-error';

function RootLayout() {
  return (
    <>
      <RouteProgressBar />
      <Outlet />
    </>
  );
}

/** The landing page inside the router: it leaves through the router, and reads where a visitor was going from it */
function RoutedLanding({ Page }: { Page: ComponentType }) {
  const navigate = useNavigate();
  const from = (useLocation().state as ReturnTo | null)?.from;
  const navigation = useMemo<LandingNavigation>(
    () => ({ from, replaceWith: (to) => navigate(to, { replace: true }), push: (to) => navigate(to), Link }),
    [from, navigate],
  );
  return (
    <LandingNavigationProvider value={navigation}>
      <Page />
    </LandingNavigationProvider>
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
        ? { path: '/', element: <RoutedLanding Page={loadedRouteCode.landing.LandingPage} /> }
        : {
            path: '/',
            lazy: async () => {
              const { LandingPage } = await routeCode.landing();
              return { element: <RoutedLanding Page={LandingPage} /> };
            },
          },
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

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function createAppRouter(): AppRouter {
  return createBrowserRouter(appRoutes());
}
