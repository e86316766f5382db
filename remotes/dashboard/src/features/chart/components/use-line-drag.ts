import type { IChartApi } from '@kestrel/ui/chart';
import { type RefObject, useEffect } from 'react';
import { grabbedLine, grabTolerance, type MovableKind, roundToTick } from '../lib/line-drag';
import type { PriceLine } from '../lib/overlays';

type Series = ReturnType<IChartApi['addSeries']>;
type DrawnLine = ReturnType<Series['createPriceLine']>;

/** A take-profit or stop-loss line dropped at a new trigger, for the trader to confirm */
export interface LineMove {
  orderId: string;
  kind: MovableKind;
  /** The trigger it had */
  from: number;
  /** The trigger it was dropped at, on the symbol's tick: "59500.0" */
  to: string;
}

/** A line being dragged, or dropped and waiting for the confirmation: drawn at `price`, a ghost where it was */
export interface MovedLine {
  orderId: string;
  price: number;
}

/** A movable line as drawn: the chart's line, the price it is drawn at, which of the two it is */
export interface DragTarget {
  line: DrawnLine;
  price: number;
  kind: MovableKind;
}

/** The drag in progress: which line, which pointer, and the chart's scroll and scale options to put back */
export interface Drag {
  orderId: string;
  kind: MovableKind;
  from: number;
  to: string;
  pointerId: number;
  restore: Pick<ReturnType<IChartApi['options']>, 'handleScroll' | 'handleScale'>;
}

export interface LineDragRefs {
  /** The element around the chart's canvas and the grips: the pointer is read there */
  wrapper: RefObject<HTMLDivElement | null>;
  parts: RefObject<{ chart: IChartApi; series: Series; movable: Map<string, DragTarget> } | null>;
  drag: RefObject<Drag | null>;
  latest: RefObject<{
    lines: readonly PriceLine[];
    tickSize: string | undefined;
    draggable: boolean;
    onMove: ((move: LineMove) => boolean) | undefined;
  }>;
  /** Draws the lines again (the dragged one at `drag.to`) */
  redraw: RefObject<(lines: readonly PriceLine[]) => void>;
}

/**
 * Dragging a take-profit or stop-loss line: a press on its grip, or on the line itself (within a finger's or a
 * pointer's reach, see `grabTolerance`), takes it; the line follows the pointer on the symbol's tick, and the drop
 * asks `onMove` (the confirmation) rather than sending anything. While a line is held the chart neither scrolls nor
 * zooms: the chart library reads its own mouse and touch events, so its handling is switched off, not stopped
 */
export function useLineDrag({ wrapper, parts, drag, latest, redraw }: LineDragRefs): void {
  useEffect(() => {
    const el = wrapper.current;
    if (!el) return;
    const local = (e: PointerEvent) => {
      const box = el.getBoundingClientRect();
      return { x: e.clientX - box.left, y: e.clientY - box.top };
    };
    /** The movable line a press at the pointer takes (on the pane, not the price axis), if any */
    const lineAt = (e: PointerEvent): string | undefined => {
      const p = parts.current;
      if (!p) return undefined;
      const grip = e.target instanceof Element ? e.target.closest('[data-grip]') : null;
      if (grip) return grip.getAttribute('data-grip') ?? undefined;
      const { x, y } = local(e);
      if (x > p.chart.paneSize(0).width) return undefined;
      const entries = [...p.movable.entries()];
      const at = entries.map(([, target]) => ({ y: p.series.priceToCoordinate(target.price) }));
      const i = grabbedLine(at, y, grabTolerance(e.pointerType));
      return i === undefined ? undefined : entries[i]?.[0];
    };

    const onDown = (e: PointerEvent) => {
      const p = parts.current;
      if (!p || !latest.current.draggable || e.button !== 0 || drag.current) return;
      const orderId = lineAt(e);
      const target = orderId === undefined ? undefined : p.movable.get(orderId);
      const to = target && roundToTick(target.price, latest.current.tickSize ?? '');
      if (orderId === undefined || !target || to === undefined) return;
      const { handleScroll, handleScale } = p.chart.options();
      p.chart.applyOptions({ handleScroll: false, handleScale: false });
      drag.current = {
        orderId,
        kind: target.kind,
        from: target.price,
        to,
        pointerId: e.pointerId,
        restore: { handleScroll, handleScale },
      };
      el.setPointerCapture(e.pointerId);
      el.dataset.dragging = 'true';
      e.preventDefault();
      e.stopPropagation();
    };

    const onMove = (e: PointerEvent) => {
      const p = parts.current;
      const d = drag.current;
      if (!p) return;
      if (!d) {
        // The cursor says a line can be taken before the press does
        el.style.cursor = latest.current.draggable && lineAt(e) !== undefined ? 'ns-resize' : '';
        return;
      }
      if (e.pointerId !== d.pointerId) return;
      const to = roundToTick(p.series.coordinateToPrice(local(e).y), latest.current.tickSize ?? '');
      if (to === undefined || to === d.to) return;
      d.to = to;
      redraw.current(latest.current.lines);
    };

    const end = (e: PointerEvent, dropped: boolean) => {
      const p = parts.current;
      const d = drag.current;
      if (!p || !d || e.pointerId !== d.pointerId) return;
      drag.current = null;
      p.chart.applyOptions(d.restore);
      if (el.hasPointerCapture(e.pointerId)) el.releasePointerCapture(e.pointerId);
      delete el.dataset.dragging;
      const moved = dropped && Number(d.to) !== d.from;
      const move = { orderId: d.orderId, kind: d.kind, from: d.from, to: d.to };
      // Shown for confirmation: the line stays where it was dropped (the caller's pending move), else it goes back
      const confirming = moved && (latest.current.onMove?.(move) ?? false);
      if (!confirming) redraw.current(latest.current.lines);
    };
    const onUp = (e: PointerEvent) => end(e, true);
    const onCancel = (e: PointerEvent) => end(e, false);

    // Capture: the press is seen before the chart's own handlers under the pointer
    el.addEventListener('pointerdown', onDown, { capture: true });
    el.addEventListener('pointermove', onMove);
    el.addEventListener('pointerup', onUp);
    el.addEventListener('pointercancel', onCancel);
    return () => {
      el.removeEventListener('pointerdown', onDown, { capture: true });
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerup', onUp);
      el.removeEventListener('pointercancel', onCancel);
    };
  }, [wrapper, parts, drag, latest, redraw]);
}
