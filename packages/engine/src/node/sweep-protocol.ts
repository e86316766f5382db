import type { RunSettings } from '../backtest/runner';
import type { BarColumns } from '../bars/bars';
import type { SweepResult } from '../optimise/sweep';

/** Shared-memory columns of the bar series */
export interface SharedBars extends BarColumns {
  intervalMs: number;
  length: number;
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
  /** Return each run's returns per period of this many bars */
  periodBars?: number;
}

export interface SweepReply {
  results: SweepResult[];
  error: string | null;
}
