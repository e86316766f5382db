import type { BacktestStatus, BacktestSummary } from '@kestrel/contracts/backtest';
import {
  Badge,
  type BadgeProps,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  figureClassName,
  formatDate,
  formatInteger,
  formatPercent,
  formatRatio,
  ScrollRegion,
  Spinner,
  toneClassName,
  toneOf,
} from '@kestrel/ui';
import { useState } from 'react';
import { compareRuns, isComparable, selectedRuns, toggleRun } from '../lib/comparison';
import { MEANINGFUL_TRADES, noTradeWords, sampleWeight, thinSampleWords } from '../lib/sample-weight';

const STATUS_BADGE: Record<BacktestStatus, { text: string; variant: BadgeProps['variant'] }> = {
  queued: { text: 'Queued', variant: 'secondary' },
  running: { text: 'Running', variant: 'secondary' },
  completed: { text: 'Completed', variant: 'outline' },
  failed: { text: 'Failed', variant: 'destructive' },
  canceled: { text: 'Canceled', variant: 'warning' },
};

const th = 'bt:whitespace-nowrap bt:px-3 bt:py-2 bt:text-xs bt:font-medium bt:text-muted-foreground';
const td = 'bt:whitespace-nowrap bt:px-3 bt:py-2';

/** "EMA crossover · BTCUSDT 1h", the name a run goes by in lists */
export function runName(run: BacktestSummary): string {
  return `${run.strategyName} · ${run.symbol} ${run.interval}`;
}

function runPeriod(run: BacktestSummary): string {
  return `${formatDate(run.startTime)} → ${formatDate(run.endTime - 1)}`;
}

export interface RunsComparisonProps {
  runs: readonly BacktestSummary[] | undefined;
  loading: boolean;
  error: Error | null;
  onRetry: () => void;
  activeRunId: string | null;
  onOpen: (id: string) => void;
  onDelete: (id: string) => void;
  deletingId: string | null;
  deleteError: string | null;
}

function ComparisonTable({ runs }: { runs: readonly BacktestSummary[] }) {
  const rows = compareRuns(runs);
  return (
    <ScrollRegion label="Comparison (scrolls sideways)">
      <table className="bt:w-full bt:border-collapse bt:text-sm" aria-label="Comparison of selected runs">
        <thead>
          <tr className="bt:border-b bt:border-border">
            <th scope="col" className={`${th} bt:text-left`}>
              Metric
            </th>
            {runs.map((run) => (
              <th key={run.id} scope="col" className={`${th} bt:text-right`}>
                <span className="bt:block bt:text-foreground">{runName(run)}</span>
                <span className="bt:block bt:font-normal">{runPeriod(run)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="bt:border-b bt:border-border bt:last:border-0">
              <th scope="row" className={`${td} bt:text-left bt:font-medium`}>
                {row.label}
              </th>
              {row.cells.map((cell) => (
                <td
                  key={cell.runId}
                  data-best={cell.best || undefined}
                  className={`${td} ${figureClassName} ${toneClassName(cell.tone)} ${cell.best ? 'bt:bg-accent bt:font-semibold' : ''}`}
                >
                  {cell.text}
                  {cell.best && <span className="bt:sr-only"> (best)</span>}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** Past runs with their key figures; tick two or more to put them side by side; open or delete one */
export function RunsComparison({
  runs,
  loading,
  error,
  onRetry,
  activeRunId,
  onOpen,
  onDelete,
  deletingId,
  deleteError,
}: RunsComparisonProps) {
  const [selected, setSelected] = useState<string[]>([]);
  const [confirming, setConfirming] = useState<string | null>(null);
  const compared = selectedRuns(runs ?? [], selected);

  let body: React.ReactNode;
  if (loading) body = <Spinner label="Loading past runs..." />;
  else if (error) {
    body = (
      <div
        role="alert"
        className="bt:flex bt:flex-wrap bt:items-center bt:gap-3 bt:text-sm bt:text-destructive"
      >
        Past runs could not be loaded: {error.message}
        <Button variant="outline" size="sm" onClick={onRetry}>
          Retry
        </Button>
      </div>
    );
  } else if (!runs || runs.length === 0) {
    body = (
      <p className="bt:text-sm bt:text-muted-foreground">No backtests yet. Runs you start appear here.</p>
    );
  } else {
    body = (
      <ScrollRegion label="Past runs (scrolls sideways)">
        <table className="bt:w-full bt:border-collapse bt:text-sm" aria-label="Past runs">
          <thead>
            <tr className="bt:border-b bt:border-border">
              <th scope="col" className={`${th} bt:text-left`}>
                Compare
              </th>
              <th scope="col" className={`${th} bt:text-left`}>
                Run
              </th>
              <th scope="col" className={`${th} bt:text-left`}>
                Status
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                Return
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                Max DD
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                Sharpe
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                Trades
              </th>
              <th scope="col" className={`${th} bt:text-right`}>
                <span className="bt:sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => {
              const m = run.metrics;
              const name = runName(run);
              const badge = STATUS_BADGE[run.status];
              return (
                <tr
                  key={run.id}
                  aria-current={run.id === activeRunId ? 'true' : undefined}
                  className="bt:border-b bt:border-border bt:last:border-0 bt:aria-[current]:bg-accent/50"
                >
                  <td className={td}>
                    <input
                      type="checkbox"
                      className="bt:size-4"
                      aria-label={`Compare ${name}, ${runPeriod(run)}`}
                      disabled={!isComparable(run)}
                      checked={selected.includes(run.id)}
                      onChange={() => setSelected((s) => toggleRun(s, run.id))}
                    />
                  </td>
                  <td className={td}>
                    <span className="bt:block bt:font-medium">{name}</span>
                    <span className="bt:block bt:font-mono bt:text-xs bt:text-muted-foreground">
                      {runPeriod(run)}
                    </span>
                  </td>
                  <td className={td}>
                    <Badge variant={badge.variant} title={run.error ?? undefined}>
                      {badge.text}
                      {run.status === 'running' ? ` ${Math.round(run.progress * 100)}%` : ''}
                    </Badge>
                  </td>
                  <td
                    className={`${td} ${figureClassName} ${m && sampleWeight(m.tradeCount) === 'enough' ? toneClassName(toneOf(m.totalReturn)) : ''}`}
                  >
                    {formatPercent(m?.totalReturn, { signed: true })}
                    {m && sampleWeight(m.tradeCount) !== 'enough' && (
                      <span
                        className="bt:block bt:font-sans bt:text-xs bt:text-muted-foreground"
                        title={
                          m.tradeCount === 0
                            ? noTradeWords(m.noTradeReason)
                            : (thinSampleWords(m.tradeCount) ?? undefined)
                        }
                      >
                        {m.tradeCount === 0 ? 'no trade' : `< ${MEANINGFUL_TRADES} trades`}
                      </span>
                    )}
                  </td>
                  <td className={`${td} ${figureClassName}`}>
                    {m ? formatPercent(m.maxDrawdown === 0 ? 0 : -Math.abs(m.maxDrawdown)) : '—'}
                  </td>
                  <td className={`${td} ${figureClassName}`}>{formatRatio(m?.sharpe)}</td>
                  <td className={`${td} ${figureClassName}`}>{formatInteger(m?.tradeCount)}</td>
                  <td className={`${td} bt:text-right`}>
                    <div className="bt:flex bt:justify-end bt:gap-2">
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => onOpen(run.id)}
                        aria-label={`View ${name}`}
                      >
                        View
                      </Button>
                      {confirming === run.id ? (
                        <Button
                          variant="destructive"
                          size="sm"
                          disabled={deletingId === run.id}
                          onClick={() => {
                            onDelete(run.id);
                            setConfirming(null);
                            setSelected((s) => s.filter((id) => id !== run.id));
                          }}
                          aria-label={`Confirm delete ${name}`}
                        >
                          Confirm delete
                        </Button>
                      ) : (
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={
                            run.status === 'queued' || run.status === 'running' || deletingId === run.id
                          }
                          onClick={() => setConfirming(run.id)}
                          aria-label={`Delete ${name}`}
                        >
                          Delete
                        </Button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
    );
  }

  return (
    <Card>
      <CardHeader>
        <h2 className="bt:font-semibold bt:leading-none">Past runs</h2>
        <CardDescription>Tick two or more finished runs to compare them side by side.</CardDescription>
      </CardHeader>
      <CardContent className="bt:flex bt:flex-col bt:gap-4">
        {body}
        {deleteError && (
          <p role="alert" className="bt:text-sm bt:text-destructive">
            {deleteError}
          </p>
        )}
        {compared.length === 1 && (
          <p className="bt:text-sm bt:text-muted-foreground">Select one more run to compare.</p>
        )}
        {compared.length >= 2 && (
          <section aria-label="Comparison" className="bt:flex bt:flex-col bt:gap-2">
            <div className="bt:flex bt:items-center bt:justify-between bt:gap-2">
              <h3 className="bt:text-sm bt:font-semibold">Comparing {compared.length} runs</h3>
              <Button variant="ghost" size="sm" onClick={() => setSelected([])}>
                Clear
              </Button>
            </div>
            <ComparisonTable runs={compared} />
          </section>
        )}
      </CardContent>
    </Card>
  );
}
