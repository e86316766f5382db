import type { BacktestMetrics } from '@kestrel/contracts/backtest';
import { toneClassName } from '@kestrel/ui';
import { FigureGrid } from '@kestrel/ui/figures';
import { metricCards } from '../lib/format';

/** The run's summary figures as a grid of small cards (two per row on a phone) */
export function MetricsCards({ metrics }: { metrics: BacktestMetrics }) {
  return (
    <FigureGrid
      label="Metrics"
      className="bt:lg:grid-cols-4 bt:xl:grid-cols-6"
      figures={metricCards(metrics).map(({ tone, ...card }) => ({
        ...card,
        valueClassName: toneClassName(tone),
      }))}
    />
  );
}
