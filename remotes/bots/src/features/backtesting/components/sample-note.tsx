import type { BacktestMetrics } from '@kestrel/contracts/backtest';
import { cn } from '@kestrel/ui';
import { noTradeWords, sampleWeight, thinSampleWords } from '../lib/sample-weight';

/**
 * What a run's figures weigh, under them: why it made no trade, or that its trades are too few to mean much.
 * Nothing from the minimum on
 */
export function SampleNote({
  metrics,
  className,
}: {
  metrics: Pick<BacktestMetrics, 'tradeCount' | 'noTradeReason'>;
  className?: string;
}) {
  const weight = sampleWeight(metrics.tradeCount);
  if (weight === 'enough') return null;
  return (
    <p
      data-sample={weight}
      className={cn(
        'bt:rounded-md bt:border-l-4 bt:border-warning bt:bg-warning/10 bt:px-2 bt:py-1 bt:text-xs bt:text-foreground',
        className,
      )}
    >
      {weight === 'none' ? noTradeWords(metrics.noTradeReason) : thinSampleWords(metrics.tradeCount)}
    </p>
  );
}
