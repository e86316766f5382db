/**
 * The code of the shell's lazy routes, one import each. The router loads a route's code when it first shows it;
 * the page's start asks for the code of the page being opened at once, beside the shell's own code, instead of
 * after config.json and the first render. The bundler loads each chunk once, so the router's later call resolves
 * with the same module.
 */
export const routeCode = {
  landing: () =>
    import('./routes/landing').then((module) => {
      loadedRouteCode.landing = module;
      return module;
    }),
  onboarding: () => import('./routes/onboarding'),
  protectedLayout: () => import('./layout/protected-layout'),
};

/**
 * The landing page's code once loaded: the router then takes its component as it is, with no lazy step, so the
 * first render is the page itself and not the router's loading screen over the landing painted from the HTML
 */
export const loadedRouteCode: { landing?: typeof import('./routes/landing') } = {};

/** Starts loading the code of the shell's own page at `pathname` (the public pages need no config or session) */
export function preloadRouteCode(pathname: string): void {
  const load =
    pathname === '/' ? routeCode.landing : pathname === '/onboarding' ? routeCode.onboarding : undefined;
  // A failure here is the router's to show when it asks for the same code
  load?.().catch(() => undefined);
}
