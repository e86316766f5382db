import { roundTripCost } from './config';
import type { AgentConfig } from './types';

/** Labels of every bar: +1 up, −1 down, 0 flat; bars whose horizon runs past the data have no label */
export interface AgentLabels {
  /** +1 / 0 / −1, and 0 for unlabelled bars (check `t1`) */
  label: Int8Array;
  /** Index of the bar the label's forward return ends at (t + horizon), −1 when that bar is not in the data */
  t1: Int32Array;
  /** Forward simple return close[t1] / close[t] − 1 (NaN when unlabelled) */
  forward: Float64Array;
  /** Bars [0, labelled) carry a label */
  labelled: number;
}

/**
 * Triple-class labels net of costs: a bar is up when its forward return over `horizonBars` beats the round-trip
 * cost plus the dead zone, down when it loses more than that, flat otherwise. The label of bar t reads bars up to
 * t1 = t + horizon: training at bar T may only use rows whose t1 ≤ T (the training window's purge).
 */
export function labelBars(close: Float64Array, config: AgentConfig, length = close.length): AgentLabels {
  const h = config.horizonBars;
  const band = config.deadZone + roundTripCost(config);
  const label = new Int8Array(length);
  const t1 = new Int32Array(length).fill(-1);
  const forward = new Float64Array(length).fill(Number.NaN);
  const labelled = Math.max(0, length - h);
  for (let t = 0; t < labelled; t++) {
    const r = (close[t + h] as number) / (close[t] as number) - 1;
    forward[t] = r;
    t1[t] = t + h;
    label[t] = r > band ? 1 : r < -band ? -1 : 0;
  }
  return { label, t1, forward, labelled };
}
