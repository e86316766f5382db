import type {
  BacktestMetrics,
  OptimisationDetail,
  OptimisationObjective,
  OptimisationRow,
  OptimisationStats,
} from '@kestrel/contracts/backtest';
import { Link } from '@kestrel/shared-runtime/router';
import {
  Badge,
  Button,
  buttonVariants,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  cn,
  Field,
  figureClassName,
  formatDate,
  formatInteger,
  formatPercent,
  formatRatio,
  NativeSelect,
  ScrollRegion,
  Spinner,
  toneClassName,
  toneOf,
} from '@kestrel/ui';
import { type ColumnDef, DataTable } from '@kestrel/ui/table';
import { lazy, Suspense, useMemo, useState } from 'react';
import { CaptionedTable } from '../../../../components/captioned-table';
import { isActive } from '../../api/get-backtest';
import { SampleNote } from '../../components/sample-note';
import { formatProfitFactor } from '../../lib/format';
import { useOptimisationResults } from '../api/optimisation-api';
import { heatMap, objectiveScore, objectiveValue, stability } from '../lib/grid-views';
import { OBJECTIVE_LABELS } from './optimise-form';

const WalkForwardChart = lazy(() => import('./walk-forward-chart'));

const show = (v: unknown) => (typeof v === 'number' ? String(v) : String(v ?? ''));

function formatObjective(objective: OptimisationObjective, m: BacktestMetrics | null): string {
  const v = objectiveValue(m, objective);
  if (m === null || v === null)
    return objective === 'profitFactor' && m ? formatProfitFactor(null, m.tradeCount) : '—';
  return objective === 'totalReturn' || objective === 'annualisedReturn' || objective === 'maxDrawdown'
    ? formatPercent(v, { signed: objective !== 'maxDrawdown' })
    : formatRatio(v);
}

interface ViewProps {
  job: OptimisationDetail;
  onCancel: () => void;
  canceling: boolean;
  /** Runs one combination as a normal backtest and shows it */
  onOpenCombination: (params: Record<string, unknown>) => void;
  opening: boolean;
  /** Where a combination becomes a new bot (/create-bot prefilled) */
  createBotHref: (params: Record<string, unknown>) => string;
}

export function OptimisationView({
  job,
  onCancel,
  canceling,
  onOpenCombination,
  opening,
  createBotHref,
}: ViewProps) {
  const completed = job.status === 'completed';
  const results = useOptimisationResults(job.id, completed);
  return (
    <section aria-label="Optimisation result" className="bt:flex bt:flex-col bt:gap-4">
      <Card>
        <CardHeader>
          <CardTitle>
            {job.strategyName} · {job.symbol} {job.interval}
          </CardTitle>
          <CardDescription>
            {formatDate(job.startTime)} → {formatDate(job.endTime - 1)} · {formatInteger(job.combinations)}{' '}
            combinations ranked by {OBJECTIVE_LABELS[job.objective]}
            {job.walkForward ? ' · with walk-forward' : ''}
          </CardDescription>
        </CardHeader>
        {isActive(job.status) && (
          <CardContent className="bt:flex bt:flex-wrap bt:items-center bt:gap-3">
            <progress
              aria-label="Optimisation progress"
              className="bt:h-2 bt:min-w-40 bt:flex-1"
              max={1}
              value={job.progress}
            />
            <span className={cn('bt:text-sm', figureClassName)}>
              {job.status === 'queued' ? 'Queued' : formatPercent(job.progress)}
            </span>
            <Button variant="outline" size="sm" onClick={onCancel} disabled={canceling}>
              Cancel
            </Button>
          </CardContent>
        )}
        {(job.status === 'failed' || job.status === 'canceled') && (
          <CardContent>
            <p
              role={job.status === 'failed' ? 'alert' : undefined}
              className="bt:text-sm bt:text-destructive"
            >
              {job.error}
            </p>
          </CardContent>
        )}
      </Card>
      {completed && job.stats && <Verdict stats={job.stats} />}
      {completed && job.best && (
        <BestCombination
          job={job}
          metrics={job.best.metrics}
          params={job.best.params}
          onOpen={() => onOpenCombination(job.best?.params ?? {})}
          opening={opening}
          botHref={createBotHref(job.best.params)}
        />
      )}
      {completed && job.walkForwardResult && (
        <Card>
          <CardHeader>
            <CardTitle>Walk-forward</CardTitle>
            <CardDescription>
              Each fold picks the best combination on its train window and trades it, untouched, on the next
              test window: the stitched test windows are what the optimisation would have earned.
            </CardDescription>
          </CardHeader>
          <CardContent className="bt:flex bt:flex-col bt:gap-4">
            <Suspense fallback={<Spinner label="Loading the chart..." />}>
              <WalkForwardChart result={job.walkForwardResult} />
            </Suspense>
            <FoldsTable job={job} />
          </CardContent>
        </Card>
      )}
      {completed &&
        (results.isPending ? (
          <Spinner label="Loading every combination..." />
        ) : results.error ? (
          <p role="alert" className="bt:text-sm bt:text-destructive">
            The combinations could not be loaded: {results.error.message}
            <Button variant="outline" size="sm" className="bt:ml-2" onClick={() => results.refetch()}>
              Retry
            </Button>
          </p>
        ) : (
          <>
            <HeatMapCard job={job} rows={results.data} />
            <StabilityCard job={job} rows={results.data} />
            <ResultsTable
              job={job}
              rows={results.data}
              onOpen={onOpenCombination}
              opening={opening}
              botHref={createBotHref}
            />
          </>
        ))}
    </section>
  );
}

function Gate({ pass, label }: { pass: boolean; label: string }) {
  return (
    <Badge variant={pass ? 'outline' : 'destructive'}>{pass ? `Passes ${label}` : `Fails ${label}`}</Badge>
  );
}

/** The headline: is the best combination more than the luck of trying many? */
function Verdict({ stats }: { stats: OptimisationStats }) {
  const all = stats.passes.dsr && stats.passes.pbo && stats.passes.randomEntry;
  const figure = 'bt:text-2xl bt:font-semibold';
  return (
    <Card data-testid="overfitting-verdict">
      <CardHeader>
        <CardTitle>
          {all
            ? 'The best combination passes every overfitting test'
            : 'Likely overfit: do not trust the best curve'}
        </CardTitle>
        <CardDescription>
          {formatInteger(stats.trials)} trials over {formatInteger(stats.periods)} return periods. The more
          combinations tried, the better the best one looks by chance; these figures correct for it.
        </CardDescription>
      </CardHeader>
      <CardContent className="bt:grid bt:grid-cols-1 bt:gap-4 bt:sm:grid-cols-3">
        <div className="bt:flex bt:flex-col bt:gap-1">
          <span className="bt:text-sm bt:text-muted-foreground">Deflated Sharpe ratio</span>
          <span className={cn(figure, figureClassName)} data-testid="dsr">
            {stats.dsr === null ? '—' : formatPercent(stats.dsr)}
          </span>
          <span className="bt:text-xs bt:text-muted-foreground">
            Probability the Sharpe ratio is real after {formatInteger(stats.trials)} trials (needs ≥{' '}
            {formatPercent(stats.gates.dsr, { digits: 0 })})
          </span>
          <Gate pass={stats.passes.dsr} label="DSR" />
        </div>
        <div className="bt:flex bt:flex-col bt:gap-1">
          <span className="bt:text-sm bt:text-muted-foreground">Probability of backtest overfitting</span>
          <span className={cn(figure, figureClassName)} data-testid="pbo">
            {stats.pbo === null ? '—' : formatPercent(stats.pbo.pbo)}
          </span>
          <span className="bt:text-xs bt:text-muted-foreground">
            {stats.pbo
              ? `How often the in-sample winner lands in the bottom half out of sample (${formatInteger(stats.pbo.splits)} splits; needs ≤ ${formatPercent(stats.gates.pbo, { digits: 0 })})`
              : 'Needs at least two combinations and eight return periods'}
          </span>
          <Gate pass={stats.passes.pbo} label="PBO" />
        </div>
        <div className="bt:flex bt:flex-col bt:gap-1">
          <span className="bt:text-sm bt:text-muted-foreground">Random-entry p-value</span>
          <span className={cn(figure, figureClassName)} data-testid="random-entry">
            {stats.randomEntry.pValue.toFixed(3)}
          </span>
          <span className="bt:text-xs bt:text-muted-foreground">
            Share of {formatInteger(stats.randomEntry.samples)} random entries (same trades and time in
            market) that did as well (needs &lt; {stats.gates.randomEntryP})
          </span>
          <Gate pass={stats.passes.randomEntry} label="random entry" />
        </div>
      </CardContent>
    </Card>
  );
}

/** The in-sample winner, greyed: the best of many trials is flattering by construction */
function BestCombination({
  job,
  metrics,
  params,
  onOpen,
  opening,
  botHref,
}: {
  job: OptimisationDetail;
  metrics: BacktestMetrics;
  params: Record<string, unknown>;
  onOpen: () => void;
  opening: boolean;
  botHref: string;
}) {
  return (
    <Card className="bt:opacity-80">
      <CardHeader>
        <CardTitle className="bt:text-base">Best combination (in sample)</CardTitle>
        <CardDescription>
          {job.parameters.map((p) => `${p} ${show(params[p])}`).join(' · ')}. In-sample figures of the winner
          of {formatInteger(job.combinations)} trials: read them with the tests above.
        </CardDescription>
      </CardHeader>
      <CardContent className="bt:flex bt:flex-wrap bt:items-center bt:gap-x-6 bt:gap-y-2 bt:text-sm bt:text-muted-foreground">
        <span>Return {formatPercent(metrics.totalReturn, { signed: true })}</span>
        <span>Sharpe {formatRatio(metrics.sharpe)}</span>
        <span>Max drawdown {formatPercent(metrics.maxDrawdown)}</span>
        <span>{formatInteger(metrics.tradeCount)} trades</span>
        <SampleNote metrics={metrics} className="bt:basis-full" />
        <Button variant="outline" size="sm" onClick={onOpen} disabled={opening}>
          Open as a backtest
        </Button>
        <Link to={botHref} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          Create a bot from it
        </Link>
      </CardContent>
    </Card>
  );
}

function FoldsTable({ job }: { job: OptimisationDetail }) {
  const folds = job.walkForwardResult?.folds ?? [];
  const th =
    'bt:whitespace-nowrap bt:px-3 bt:py-2 bt:text-left bt:text-xs bt:font-medium bt:text-muted-foreground';
  const td = cn('bt:whitespace-nowrap bt:px-3 bt:py-1.5', figureClassName);
  return (
    <CaptionedTable label="Walk-forward folds">
      <thead>
        <tr>
          <th className={th}>Test window</th>
          <th className={th}>Chosen parameters</th>
          <th className={th}>In-sample return</th>
          <th className={th}>Test return</th>
          <th className={th}>Test Sharpe</th>
        </tr>
      </thead>
      <tbody>
        {folds.map((f) => (
          <tr key={f.testStart} className="bt:border-t">
            <td className={td}>
              {formatDate(f.testStart)} → {formatDate(f.testEnd - 1)}
            </td>
            <td className={td}>{job.parameters.map((p) => `${p} ${show(f.params[p])}`).join(', ')}</td>
            <td className={cn(td, 'bt:text-muted-foreground')}>
              {formatPercent(f.inSample.totalReturn, { signed: true })}
            </td>
            <td className={cn(td, toneClassName(toneOf(f.outOfSample.totalReturn)))}>
              {formatPercent(f.outOfSample.totalReturn, { signed: true })}
            </td>
            <td className={td}>{formatRatio(f.outOfSample.sharpe)}</td>
          </tr>
        ))}
      </tbody>
    </CaptionedTable>
  );
}

/** The objective over two chosen parameters (each cell: the best over the others) */
/** Which of the job's parameters lies along one side of the heat map */
function ParameterSelect({
  label,
  parameters,
  value,
  onChange,
}: {
  label: string;
  parameters: readonly string[];
  value: string;
  onChange: (parameter: string) => void;
}) {
  return (
    <Field label={label}>
      {(control) => (
        <NativeSelect {...control} value={value} onChange={(e) => onChange(e.target.value)}>
          {parameters.map((p) => (
            <option key={p}>{p}</option>
          ))}
        </NativeSelect>
      )}
    </Field>
  );
}

function HeatMapCard({ job, rows }: { job: OptimisationDetail; rows: OptimisationRow[] }) {
  const [x, setX] = useState(job.parameters[0] ?? '');
  const [y, setY] = useState(job.parameters[1] ?? job.parameters[0] ?? '');
  const map = useMemo(() => heatMap(rows, x, y, job.objective), [rows, x, y, job.objective]);
  const span = map.max - map.min;
  const shade = (v: number) => (span > 0 ? Math.round(((v - map.min) / span) * 85) + 10 : 60);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Heat map of {OBJECTIVE_LABELS[job.objective]}</CardTitle>
        <CardDescription>
          A robust result sits on a broad bright area, not on a lone bright cell among dark ones.
        </CardDescription>
      </CardHeader>
      <CardContent className="bt:flex bt:flex-col bt:gap-3">
        {job.parameters.length > 1 && (
          <div className="bt:grid bt:grid-cols-2 bt:gap-3 bt:sm:max-w-md">
            <ParameterSelect label="Across" parameters={job.parameters} value={x} onChange={setX} />
            <ParameterSelect label="Down" parameters={job.parameters} value={y} onChange={setY} />
          </div>
        )}
        <ScrollRegion label="Heat map (scrolls sideways)">
          <table className="bt:border-separate bt:border-spacing-0.5 bt:text-xs" data-testid="heat-map">
            <caption className="bt:sr-only">
              {OBJECTIVE_LABELS[job.objective]} by {x} (columns) and {y} (rows)
            </caption>
            <thead>
              <tr>
                <th scope="col" className="bt:px-2 bt:text-muted-foreground">
                  {y} \ {x}
                </th>
                {map.xs.map((v) => (
                  <th key={show(v)} scope="col" className={cn('bt:px-2 bt:font-medium', figureClassName)}>
                    {show(v)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {map.ys.map((yv, yi) => (
                <tr key={show(yv)}>
                  <th scope="row" className={cn('bt:px-2 bt:text-right bt:font-medium', figureClassName)}>
                    {show(yv)}
                  </th>
                  {map.xs.map((xv, xi) => {
                    const cell = map.cells[yi]?.[xi] ?? null;
                    const row = map.rows[yi]?.[xi] ?? null;
                    return (
                      <td
                        key={show(xv)}
                        title={`${x} ${show(xv)}, ${y} ${show(yv)}`}
                        className={cn(
                          'bt:min-w-14 bt:rounded-sm bt:px-2 bt:py-1.5 bt:text-center',
                          figureClassName,
                        )}
                        style={
                          cell === null
                            ? undefined
                            : {
                                background: `color-mix(in oklch, var(--primary) ${shade(cell)}%, var(--background))`,
                              }
                        }
                      >
                        <span className="bt:rounded-sm bt:bg-background/80 bt:px-1">
                          {row ? formatObjective(job.objective, row.metrics) : '—'}
                        </span>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      </CardContent>
    </Card>
  );
}

/** Per parameter: the objective along its values with the others held at the best combination's */
function StabilityCard({ job, rows }: { job: OptimisationDetail; rows: OptimisationRow[] }) {
  const lines = useMemo(
    () => stability(rows, job.parameters, job.best?.index ?? -1, job.objective),
    [rows, job.parameters, job.best?.index, job.objective],
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Parameter stability</CardTitle>
        <CardDescription>
          How {OBJECTIVE_LABELS[job.objective]} changes as one parameter moves away from the best point and
          the others stay put. A cliff next to the best value means the result rests on luck.
        </CardDescription>
      </CardHeader>
      <CardContent className="bt:grid bt:grid-cols-1 bt:gap-4 bt:md:grid-cols-2">
        {lines.map((line) => {
          const scores = line.points.map((p) => p.score).filter((s): s is number => s !== null);
          const lo = Math.min(...scores);
          const hi = Math.max(...scores);
          // Longer is better: the worst value gets a sliver, the best the whole track
          const width = (s: number) => (hi - lo > 0 ? 5 + (95 * (s - lo)) / (hi - lo) : 100);
          return (
            <figure key={line.param} className="bt:flex bt:flex-col bt:gap-1">
              <figcaption className="bt:text-sm bt:font-medium">{line.param}</figcaption>
              {line.points.map((p) => (
                <div key={show(p.value)} className="bt:flex bt:items-center bt:gap-2 bt:text-xs">
                  <span
                    className={cn(
                      'bt:w-14 bt:shrink-0 bt:text-right',
                      figureClassName,
                      p.isBest && 'bt:font-semibold',
                    )}
                  >
                    {show(p.value)}
                  </span>
                  <span className="bt:h-3 bt:flex-1 bt:rounded-sm bt:bg-muted">
                    <span
                      className={cn(
                        'bt:block bt:h-3 bt:rounded-sm',
                        p.isBest
                          ? 'bt:bg-primary'
                          : p.score !== null && p.score < 0
                            ? 'bt:bg-destructive/70'
                            : 'bt:bg-primary/50',
                      )}
                      style={{ width: `${p.score === null ? 0 : width(p.score)}%` }}
                    />
                  </span>
                  <span className={cn('bt:w-16 bt:shrink-0 bt:text-right', figureClassName)}>
                    {p.score === null
                      ? 'refused'
                      : formatRatio(job.objective === 'maxDrawdown' ? -p.score : p.score)}
                  </span>
                </div>
              ))}
            </figure>
          );
        })}
      </CardContent>
    </Card>
  );
}

/** Every combination, sortable, only the rows in view rendered */
function ResultsTable({
  job,
  rows,
  onOpen,
  opening,
  botHref,
}: {
  job: OptimisationDetail;
  rows: OptimisationRow[];
  onOpen: (params: Record<string, unknown>) => void;
  opening: boolean;
  botHref: (params: Record<string, unknown>) => string;
}) {
  const columns = useMemo<ColumnDef<OptimisationRow, unknown>[]>(() => {
    const figure = (
      id: keyof BacktestMetrics,
      header: string,
      fmt: (m: BacktestMetrics) => string,
    ): ColumnDef<OptimisationRow, unknown> => ({
      id,
      header,
      accessorFn: (r) => (r.metrics ? (r.metrics[id] ?? Number.POSITIVE_INFINITY) : Number.NEGATIVE_INFINITY),
      cell: ({ row }) => (row.original.metrics ? fmt(row.original.metrics) : '—'),
      meta: { align: 'right' },
    });
    return [
      ...job.parameters.map(
        (p): ColumnDef<OptimisationRow, unknown> => ({
          id: `param-${p}`,
          header: p,
          accessorFn: (r) => r.params[p],
          cell: ({ row }) => show(row.original.params[p]),
        }),
      ),
      {
        id: 'objective',
        header: OBJECTIVE_LABELS[job.objective],
        accessorFn: (r) => objectiveScore(r.metrics, job.objective),
        cell: ({ row }) =>
          row.original.metrics ? formatObjective(job.objective, row.original.metrics) : row.original.error,
        meta: { align: 'right' },
      },
      // The objective's own column is not repeated
      ...(job.objective === 'totalReturn'
        ? []
        : [figure('totalReturn', 'Return', (m) => formatPercent(m.totalReturn, { signed: true }))]),
      ...(job.objective === 'sharpe' ? [] : [figure('sharpe', 'Sharpe', (m) => formatRatio(m.sharpe))]),
      ...(job.objective === 'maxDrawdown'
        ? []
        : [figure('maxDrawdown', 'Max DD', (m) => formatPercent(m.maxDrawdown))]),
      figure('tradeCount', 'Trades', (m) => formatInteger(m.tradeCount)),
      {
        id: 'open',
        header: '',
        enableSorting: false,
        cell: ({ row }) => {
          const which = job.parameters.map((p) => `${p} ${show(row.original.params[p])}`).join(', ');
          return (
            <span className="bt:flex bt:gap-1">
              <Button
                variant="ghost"
                size="sm"
                disabled={opening || row.original.metrics === null}
                onClick={() => onOpen(row.original.params)}
                aria-label={`Backtest ${which}`}
              >
                Backtest
              </Button>
              <Link
                to={botHref(row.original.params)}
                className={buttonVariants({ variant: 'ghost', size: 'sm' })}
                aria-label={`Create a bot with ${which}`}
              >
                Bot
              </Link>
            </span>
          );
        },
      },
    ];
  }, [job.parameters, job.objective, onOpen, opening, botHref]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Every combination</CardTitle>
        <CardDescription>
          In-sample figures; click a header to sort, Backtest to open one as a normal run, Bot to create a bot
          with its parameters.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <DataTable
          label="Every combination"
          columns={columns}
          data={rows}
          getRowId={(r) => String(r.index)}
          initialSorting={[{ id: 'objective', desc: true }]}
          virtualize={{ rowHeight: 36, height: 420 }}
        />
      </CardContent>
    </Card>
  );
}
