import { useEffect, useRef, useState } from 'react';
import { createRouteProgress, type RouteProgressState } from './route-progress';

/**
 * Thin bar at the top of the window, restarted whenever `pathname` changes (and as it appears): the router's
 * `RouteProgressBar`, and the cold landing's (rendered before the router: `cold-landing.tsx`)
 */
export function PathProgressBar({ pathname }: { pathname: string }) {
  const [state, setState] = useState<RouteProgressState>({ visible: false, percent: 0 });
  const progress = useRef<ReturnType<typeof createRouteProgress> | null>(null);

  useEffect(() => {
    progress.current = createRouteProgress(setState);
    return () => progress.current?.dispose();
  }, []);

  // A route change is a new path: a page writing its own state into the query string (e.g. ?run=) is not one
  // biome-ignore lint/correctness/useExhaustiveDependencies: restart on each change of route, keyed by the path
  useEffect(() => {
    progress.current?.start();
  }, [pathname]);

  if (!state.visible) return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading page"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={state.percent}
      className="sh:pointer-events-none sh:fixed sh:inset-x-0 sh:top-0 sh:z-[100] sh:h-0.5"
    >
      <div
        className="sh:h-full sh:bg-primary sh:transition-[width] sh:duration-150 sh:ease-out"
        style={{ width: `${state.percent}%` }}
      />
    </div>
  );
}
