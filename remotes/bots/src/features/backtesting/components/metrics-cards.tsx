import type { BacktestMetrics } from '@kestrel/contracts/backtest';
import { toneClassName } from '@kestrel/ui';
import { metricCards } from '../lib/format';

/** The run's summary figures as a grid of small cards (two per row on a phone) */
export function MetricsCards({ metrics }: { metrics: BacktestMetrics }) {
  return (
    <dl
      aria-label="Metrics"
      className="bt:grid bt:grid-cols-2 bt:gap-3 bt:sm:grid-cols-3 bt:lg:grid-cols-4 bt:xl:grid-cols-6"
    >
      {metricCards(metrics).map((card) => (
        <div
          key={card.key}
          data-metric={card.key}
          className="bt:flex bt:min-w-0 bt:flex-col bt:gap-1 bt:rounded-lg bt:border bt:border-border bt:bg-card bt:p-3"
        >
          <dt className="bt:truncate bt:text-xs bt:font-medium bt:text-muted-foreground">{card.label}</dt>
          <dd
            className={`bt:font-mono bt:text-lg bt:font-semibold bt:tabular-nums ${toneClassName(card.tone)}`}
          >
            {card.value}
          </dd>
          <dd className="bt:text-xs bt:text-muted-foreground">{card.hint}</dd>
        </div>
      ))}
    </dl>
  );
}
