import type { BacktestSummary } from '@kestrel/contracts/backtest';
import {
  Button,
  formatDate,
  formatInteger,
  formatPercent,
  Spinner,
  toneClassName,
  toneOf,
} from '@kestrel/ui';
import { sampleWeight } from '../lib/sample-weight';
import { SampleNote } from './sample-note';

const DAY_MS = 86_400_000;

/** "BTCUSDT 1h, 2026-11-18 to 2026-11-24 (UTC)": what a figure was measured on */
export function runScope(
  run: Pick<BacktestSummary, 'symbol' | 'interval' | 'startTime' | 'endTime'>,
): string {
  return `${run.symbol} ${run.interval}, ${formatDate(run.startTime)} to ${formatDate(run.endTime - DAY_MS)} (UTC)`;
}

/**
 * A backtest's three headline figures (return, max drawdown, trades) with the period and market they come from and
 * what they weigh (why no trade, or too few to mean much);
 * while it is queued or running, its progress; a failure with a way to run it again
 */
export function QuickFigures({
  run,
  error,
  onRetry,
  label,
  note = '',
}: {
  run: BacktestSummary | null;
  error: string | null;
  onRetry?: () => void;
  /** The figures' accessible name */
  label: string;
  /** What else the reader must know of the run (", default parameters") */
  note?: string;
}) {
  if (run?.status === 'completed' && run.metrics) {
    const m = run.metrics;
    // A figure from too few trades is shown without the colour of a result: its note says why
    const weighty = sampleWeight(m.tradeCount) === 'enough';
    const figures = [
      {
        key: 'return',
        term: 'Return',
        value: formatPercent(m.totalReturn, { signed: true }),
        tone: weighty ? toneOf(m.totalReturn, { digits: 4 }) : ('neutral' as const),
      },
      {
        key: 'drawdown',
        term: 'Max drawdown',
        value: formatPercent(m.maxDrawdown === 0 ? 0 : -Math.abs(m.maxDrawdown)),
        tone: m.maxDrawdown > 0 && weighty ? ('negative' as const) : ('neutral' as const),
      },
      { key: 'trades', term: 'Trades', value: formatInteger(m.tradeCount), tone: 'neutral' as const },
    ];
    return (
      <div className="bt:flex bt:flex-col bt:gap-1">
        <dl aria-label={label} className="bt:grid bt:grid-cols-3 bt:gap-2">
          {figures.map((f) => (
            <div key={f.key} data-figure={f.key} className="bt:flex bt:min-w-0 bt:flex-col">
              <dt className="bt:text-xs bt:text-muted-foreground">{f.term}</dt>
              <dd
                className={`bt:font-mono bt:text-base bt:font-semibold bt:tabular-nums ${toneClassName(f.tone)}`}
              >
                {f.value}
              </dd>
            </div>
          ))}
        </dl>
        <SampleNote metrics={m} />
        <p className="bt:text-xs bt:text-muted-foreground">
          Backtest of {runScope(run)}
          {note}, regular fees.
        </p>
      </div>
    );
  }
  const failure =
    error ??
    (run && (run.status === 'failed' || run.status === 'canceled') ? (run.error ?? run.status) : null);
  if (failure) {
    return (
      <div
        role="alert"
        className="bt:flex bt:flex-wrap bt:items-center bt:gap-2 bt:text-xs bt:text-destructive"
      >
        The backtest could not run: {failure}
        {onRetry && (
          <Button size="sm" variant="outline" onClick={onRetry}>
            Run again
          </Button>
        )}
      </div>
    );
  }
  const progress = run ? Math.round(run.progress * 100) : 0;
  return (
    <Spinner
      label={
        run?.status === 'running'
          ? `Backtesting the last days… ${progress} %`
          : run?.status === 'queued'
            ? 'Backtest queued…'
            : 'Starting a backtest…'
      }
    />
  );
}
