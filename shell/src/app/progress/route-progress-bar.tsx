import { useLocation } from '@kestrel/shared-runtime/router';
import { PathProgressBar } from './path-progress-bar';

/** Thin bar at the top of the window on every route change */
export function RouteProgressBar() {
  return <PathProgressBar pathname={useLocation().pathname} />;
}
