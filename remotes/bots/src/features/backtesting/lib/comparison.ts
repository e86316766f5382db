import type { BacktestMetrics, BacktestSummary } from '@kestrel/contracts/backtest';
import { formatInteger, formatPercent, formatRatio, type Tone, toneOf } from '@kestrel/ui';
import { formatProfitFactor } from './format';

type MetricKey = keyof BacktestMetrics;

interface ComparedMetric {
  key: MetricKey;
  label: string;
  /** Which way is better when runs are ranked; `null`: not ranked (a count, not a score) */
  better: 'higher' | 'lower' | null;
  format: (m: BacktestMetrics) => string;
  tone: (m: BacktestMetrics) => Tone;
}

/** A risk-adjusted ratio: higher is better, its sign gives its tone */
const ratioMetric = (key: 'sharpe' | 'sortino' | 'calmar', label: string): ComparedMetric => ({
  key,
  label,
  better: 'higher',
  format: (m) => formatRatio(m[key]),
  tone: (m) => toneOf(m[key]),
});

/** The figures put side by side, in the order of the result cards */
export const COMPARED_METRICS: readonly ComparedMetric[] = [
  {
    key: 'totalReturn',
    label: 'Total return',
    better: 'higher',
    format: (m) => formatPercent(m.totalReturn, { signed: true }),
    tone: (m) => toneOf(m.totalReturn),
  },
  {
    key: 'annualisedReturn',
    label: 'Annualised return',
    better: 'higher',
    format: (m) => formatPercent(m.annualisedReturn, { signed: true }),
    tone: (m) => toneOf(m.annualisedReturn),
  },
  {
    key: 'maxDrawdown',
    label: 'Max drawdown',
    better: 'lower',
    format: (m) => formatPercent(m.maxDrawdown === 0 ? 0 : -Math.abs(m.maxDrawdown)),
    tone: (m) => (m.maxDrawdown > 0 ? 'negative' : 'neutral'),
  },
  ratioMetric('sharpe', 'Sharpe'),
  ratioMetric('sortino', 'Sortino'),
  ratioMetric('calmar', 'Calmar'),
  {
    key: 'winRate',
    label: 'Win rate',
    better: 'higher',
    format: (m) => (m.tradeCount > 0 ? formatPercent(m.winRate) : '—'),
    tone: () => 'neutral',
  },
  {
    key: 'profitFactor',
    label: 'Profit factor',
    better: 'higher',
    format: (m) => formatProfitFactor(m.profitFactor, m.tradeCount),
    tone: (m) => (m.profitFactor === null ? 'neutral' : toneOf(m.profitFactor - 1)),
  },
  {
    key: 'tradeCount',
    label: 'Trades',
    better: null,
    format: (m) => formatInteger(m.tradeCount),
    tone: () => 'neutral',
  },
];

export interface ComparisonCell {
  runId: string;
  text: string;
  tone: Tone;
  /** The best figure of the row among the compared runs (ties: every run sharing it) */
  best: boolean;
}

export interface ComparisonRow {
  key: MetricKey;
  label: string;
  cells: ComparisonCell[];
}

/**
 * The value a metric is ranked by; null when it cannot be ranked. A profit factor of null with trades means no
 * losing trade (infinitely good); without trades there is nothing to rank.
 */
function rankValue(metric: ComparedMetric, m: BacktestMetrics): number | null {
  if (metric.key === 'profitFactor') {
    if (m.profitFactor === null) return m.tradeCount > 0 ? Number.POSITIVE_INFINITY : null;
    return m.profitFactor;
  }
  if (metric.key === 'winRate' && m.tradeCount === 0) return null;
  const value = m[metric.key];
  return typeof value === 'number' && !Number.isNaN(value) ? value : null;
}

/** Rows of metrics for the given runs, in the runs' order; runs without metrics show "—" and are never best */
export function compareRuns(runs: readonly BacktestSummary[]): ComparisonRow[] {
  return COMPARED_METRICS.map((metric) => {
    const values = runs.map((run) => (run.metrics ? rankValue(metric, run.metrics) : null));
    const ranked = values.filter((v): v is number => v !== null);
    // Marking a best needs something to beat: two ranked runs at least, and not all equal
    let best: number | null = null;
    if (metric.better && ranked.length >= 2 && new Set(ranked).size > 1) {
      best = metric.better === 'higher' ? Math.max(...ranked) : Math.min(...ranked);
    }
    return {
      key: metric.key,
      label: metric.label,
      cells: runs.map((run, i) => ({
        runId: run.id,
        text: run.metrics ? metric.format(run.metrics) : '—',
        tone: run.metrics ? metric.tone(run.metrics) : 'neutral',
        best: best !== null && values[i] === best,
      })),
    };
  });
}

/** Adds or removes one run from the selection, keeping the order in which runs were picked */
export function toggleRun(selected: readonly string[], runId: string): string[] {
  return selected.includes(runId) ? selected.filter((id) => id !== runId) : [...selected, runId];
}

/** The selected runs that still exist (a deleted run leaves the comparison), in selection order */
export function selectedRuns(
  runs: readonly BacktestSummary[],
  selected: readonly string[],
): BacktestSummary[] {
  const byId = new Map(runs.map((run) => [run.id, run]));
  return selected.flatMap((id) => {
    const run = byId.get(id);
    return run ? [run] : [];
  });
}

/** Only finished runs with figures can be compared */
export function isComparable(run: BacktestSummary): boolean {
  return run.status === 'completed' && run.metrics !== null;
}
