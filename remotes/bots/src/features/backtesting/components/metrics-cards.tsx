import type { BacktestMetrics } from '@kestrel/contracts/backtest';
import { toneClassName } from '@kestrel/ui';
import { FigureGrid } from '@kestrel/ui/figures';
import { metricCards } from '../lib/format';
import { sampleWeight } from '../lib/sample-weight';
import { SampleNote } from './sample-note';

/** The run's summary figures as a grid of small cards (two per row on a phone), and what they weigh */
export function MetricsCards({ metrics }: { metrics: BacktestMetrics }) {
  const weighty = sampleWeight(metrics.tradeCount) === 'enough';
  return (
    <>
      <SampleNote metrics={metrics} className="bt:text-sm" />
      <FigureGrid
        label="Metrics"
        className="bt:lg:grid-cols-4 bt:xl:grid-cols-6"
        figures={metricCards(metrics).map(({ tone, ...card }) => ({
          ...card,
          valueClassName: toneClassName(weighty ? tone : 'neutral'),
        }))}
      />
    </>
  );
}
