import type { BacktestMetrics, OptimisationObjective, OptimisationRow } from '@kestrel/contracts/backtest';

/** The objective's score of a row, higher is better (the engine's `score`: drawdown lowest first, refused last) */
export function objectiveScore(metrics: BacktestMetrics | null, objective: OptimisationObjective): number {
  if (!metrics) return Number.NEGATIVE_INFINITY;
  if (objective === 'maxDrawdown') return -metrics.maxDrawdown;
  if (objective === 'profitFactor') return metrics.profitFactor ?? Number.POSITIVE_INFINITY;
  return metrics[objective];
}

/** The objective as shown (drawdown as the positive fraction it is) */
export function objectiveValue(
  metrics: BacktestMetrics | null,
  objective: OptimisationObjective,
): number | null {
  if (!metrics) return null;
  return objective === 'profitFactor' ? metrics.profitFactor : metrics[objective];
}

const key = (v: unknown) => JSON.stringify(v);

export interface HeatMap {
  xs: unknown[];
  ys: unknown[];
  /** cells[y][x]: the best score over the other parameters, null where every combination was refused */
  cells: (number | null)[][];
  /** The row behind each cell's score */
  rows: (OptimisationRow | null)[][];
  min: number;
  max: number;
}

/** The objective over two parameters; each cell keeps the best combination of the other parameters */
export function heatMap(
  rows: readonly OptimisationRow[],
  x: string,
  y: string,
  objective: OptimisationObjective,
): HeatMap {
  const xs = distinct(rows.map((r) => r.params[x]));
  const ys = distinct(rows.map((r) => r.params[y]));
  const xi = new Map(xs.map((v, i) => [key(v), i]));
  const yi = new Map(ys.map((v, i) => [key(v), i]));
  const cells: (number | null)[][] = ys.map(() => xs.map(() => null));
  const best: (OptimisationRow | null)[][] = ys.map(() => xs.map(() => null));
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const row of rows) {
    const s = objectiveScore(row.metrics, objective);
    if (!Number.isFinite(s)) continue;
    const cx = xi.get(key(row.params[x])) as number;
    const cy = yi.get(key(row.params[y])) as number;
    const current = cells[cy]?.[cx];
    if (current === null || current === undefined || s > current) {
      (cells[cy] as (number | null)[])[cx] = s;
      (best[cy] as (OptimisationRow | null)[])[cx] = row;
    }
  }
  for (const line of cells)
    for (const c of line) {
      if (c === null) continue;
      min = Math.min(min, c);
      max = Math.max(max, c);
    }
  return { xs, ys, cells, rows: best, min, max };
}

/** Values in first-seen order, numbers sorted */
function distinct(values: unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const v of values) if (!seen.has(key(v))) seen.set(key(v), v);
  const out = [...seen.values()];
  return out.every((v) => typeof v === 'number') ? (out as number[]).sort((a, b) => a - b) : out;
}

export interface StabilityLine {
  param: string;
  points: { value: unknown; score: number | null; isBest: boolean }[];
}

/**
 * How the objective moves around the best point: for each parameter, the objective along its values with every
 * other parameter held at the best combination's. A peak standing alone on a cliff is luck; a plateau is robust.
 */
export function stability(
  rows: readonly OptimisationRow[],
  parameters: readonly string[],
  bestIndex: number,
  objective: OptimisationObjective,
): StabilityLine[] {
  const best = rows.find((r) => r.index === bestIndex);
  if (!best) return [];
  return parameters.map((param) => {
    const line = rows.filter((r) =>
      parameters.every((p) => p === param || key(r.params[p]) === key(best.params[p])),
    );
    const points = line.map((r) => {
      const s = objectiveScore(r.metrics, objective);
      return { value: r.params[param], score: Number.isFinite(s) ? s : null, isBest: r.index === bestIndex };
    });
    if (points.every((p) => typeof p.value === 'number'))
      points.sort((a, b) => (a.value as number) - (b.value as number));
    return { param, points };
  });
}
