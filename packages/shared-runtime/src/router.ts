/**
 * The page's one router, shared as a singleton through this entry point instead of sharing `react-router-dom`
 * whole. A shared module cannot be tree-shaken (a remote may use any export), and the whole of react-router 7
 * (server rendering, RSC, cookies, sessions) is ~60 KB gzip; re-exporting only what the apps use lets the build
 * drop the rest. Every app imports routing from here (biome forbids `react-router` imports elsewhere): a direct
 * import would bundle a second router copy whose contexts the shell's RouterProvider never fills.
 * Need another export? Add it here; the shell and remotes share this module at one exact version.
 */
export {
  BrowserRouter,
  createBrowserRouter,
  createMemoryRouter,
  Link,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  type RouteObject,
  RouterProvider,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router-dom';
