import { useEffect } from 'react';

/**
 * The page's own marks of when its first real figures reach the screen, read by `pnpm bench page-paint` (and by
 * anyone in DevTools' Performance panel): the account cards with the exchange's figures, and the chart with its
 * last candle. Loading, error and empty states never set them.
 */
export const PAINT_MARKS = {
  figures: 'kestrel:dashboard-figures',
  lastCandle: 'kestrel:dashboard-last-candle',
} as const;

export type PaintMark = (typeof PAINT_MARKS)[keyof typeof PAINT_MARKS];

/**
 * Sets `name` once per page load, in the frame that paints what was just committed (a frame callback runs before
 * that frame's paint; the chart library draws in one too, registered first)
 */
export function markPainted(name: PaintMark): void {
  if (typeof performance === 'undefined' || typeof performance.mark !== 'function') return;
  const mark = () => {
    if (performance.getEntriesByName(name, 'mark').length === 0) performance.mark(name);
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(mark);
  else mark();
}

/** {@link markPainted} once `ready` is true, after React committed the render that shows it */
export function usePaintMark(name: PaintMark, ready: boolean): void {
  useEffect(() => {
    if (ready) markPainted(name);
  }, [name, ready]);
}
