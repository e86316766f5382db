import type { BarSeries } from '../bars/bars';
import type { Fill } from '../broker/orders';
import type { StrategyType } from '../strategy/registry';
import { type RunSettings, runBacktest } from './runner';

/** Outcome of a lookahead check: the first fill that changed when the future was removed, if any */
export interface LookaheadReport {
  cutPoints: number[];
  clean: boolean;
  /** Where the run on truncated bars first disagreed with the full run */
  firstDifference: { cutAt: number; index: number; full: Fill | null; truncated: Fill | null } | null;
}

/**
 * Lookahead analysis: re-runs the backtest on bars cut off at several points and checks that every fill before
 * each cut is identical to the full run. A strategy (or a batch `prepare`) that peeks at later bars changes its
 * past decisions when the future is removed.
 * @see https://www.freqtrade.io/en/stable/lookahead-analysis/ (the same idea)
 */
export function lookaheadCheck(
  type: StrategyType,
  params: unknown,
  bars: BarSeries,
  settings: RunSettings = {},
  cuts = 4,
): LookaheadReport {
  const full = runBacktest(type, params, bars, settings).fills;
  const cutPoints = Array.from({ length: cuts }, (_, k) => Math.floor((bars.length * (k + 1)) / (cuts + 1)));
  for (const cutAt of cutPoints) {
    const truncated = runBacktest(type, params, bars.slice(0, cutAt), settings).fills;
    const expected = full.filter((f) => f.barIndex < cutAt);
    const n = Math.max(expected.length, truncated.length);
    for (let i = 0; i < n; i++) {
      const a = expected[i];
      const b = truncated[i];
      if (!a || !b || !sameFill(a, b)) {
        return {
          cutPoints,
          clean: false,
          firstDifference: { cutAt, index: i, full: a ?? null, truncated: b ?? null },
        };
      }
    }
  }
  return { cutPoints, clean: true, firstDifference: null };
}

function sameFill(a: Fill, b: Fill): boolean {
  return (
    a.barIndex === b.barIndex &&
    a.side === b.side &&
    a.quantity === b.quantity &&
    a.price === b.price &&
    a.tag === b.tag &&
    a.positionAfter === b.positionAfter
  );
}
