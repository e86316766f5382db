/** Spec §2 / §9: the top progress bar on every route change */
export const ROUTE_PROGRESS = {
  startPercent: 12,
  tickMs: 150,
  minStep: 3,
  maxStep: 13,
  capPercent: 80,
  finishAtMs: 1200,
  hideAfterMs: 250,
} as const;

export type RouteProgressState = { visible: boolean; percent: number };

/**
 * Starts at 12 %, rises by a random whole step of 3 to 13 every 150 ms up to 80 %, completes at 1200 ms and hides
 * 250 ms later. A new route change restarts it. `random` returns [0, 1), like Math.random.
 */
export function createRouteProgress(
  onChange: (state: RouteProgressState) => void,
  random: () => number = Math.random,
) {
  const timers: ReturnType<typeof setTimeout>[] = [];
  let ticker: ReturnType<typeof setInterval> | undefined;
  let percent = 0;

  const stop = () => {
    clearInterval(ticker);
    for (const t of timers.splice(0)) clearTimeout(t);
  };
  const step = () =>
    ROUTE_PROGRESS.minStep + Math.floor(random() * (ROUTE_PROGRESS.maxStep - ROUTE_PROGRESS.minStep + 1));

  return {
    start() {
      stop();
      percent = ROUTE_PROGRESS.startPercent;
      onChange({ visible: true, percent });
      ticker = setInterval(() => {
        percent = Math.min(ROUTE_PROGRESS.capPercent, percent + step());
        onChange({ visible: true, percent });
      }, ROUTE_PROGRESS.tickMs);
      timers.push(
        setTimeout(() => {
          clearInterval(ticker);
          onChange({ visible: true, percent: 100 });
          timers.push(
            setTimeout(() => onChange({ visible: false, percent: 100 }), ROUTE_PROGRESS.hideAfterMs),
          );
        }, ROUTE_PROGRESS.finishAtMs),
      );
    },
    dispose: stop,
  };
}
