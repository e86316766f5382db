import type { RunSettings } from '../backtest/runner';
import type { SweepResult } from '../optimise/sweep';

/** Shared-memory columns of the bar series */
export interface SharedBars {
  intervalMs: number;
  length: number;
  openTime: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

export interface SweepJob {
  strategyId: string;
  settings: RunSettings;
  bars: SharedBars;
}

/** Run these combinations over bars [start, end) */
export interface SweepTask {
  combos: Record<string, unknown>[];
  start: number;
  end: number;
}

export interface SweepReply {
  results: SweepResult[];
  error: string | null;
}
