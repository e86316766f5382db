import type { BacktestRequestInput, BacktestStrategyInfo } from '@kestrel/contracts/backtest';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { useSearchParams } from '@kestrel/shared-runtime/router';
import { Button, Card, CardContent, Spinner } from '@kestrel/ui';
import { useCallback } from 'react';
import '../../styles.css';
import { useCancelBacktest } from '../../features/backtesting/api/cancel-backtest';
import { useCreateBacktest } from '../../features/backtesting/api/create-backtest';
import { useDeleteBacktest } from '../../features/backtesting/api/delete-backtest';
import { isActive, useBacktest } from '../../features/backtesting/api/get-backtest';
import { useBacktests } from '../../features/backtesting/api/get-backtests';
import { useStrategies } from '../../features/backtesting/api/get-strategies';
import { BacktestForm } from '../../features/backtesting/components/backtest-form';
import { BacktestResults } from '../../features/backtesting/components/backtest-results';
import { RunProgress } from '../../features/backtesting/components/run-progress';
import { RunsComparison } from '../../features/backtesting/components/runs-comparison';
import { useBacktestNotices, useListFollowsRun } from '../../features/backtesting/hooks/use-backtest-notices';
import { OptimiseMode } from '../../features/backtesting/optimise/components/optimise-mode';
import { ParamsFields } from '../../features/strategy-params/components/params-fields';
import {
  describeParams,
  paramsToFormValues,
  parseStrategyParams,
} from '../../features/strategy-params/lib/params-schema';

/** The run on screen is in the URL (`?run=<id>`), so a reload or a shared link shows the same result */
const RUN_PARAM = 'run';
/** `?mode=optimise` shows the optimiser, with its job on screen as `?job=<id>` */
const MODE_PARAM = 'mode';
const JOB_PARAM = 'job';

function paramsToForm(strategy: BacktestStrategyInfo): Record<string, unknown> {
  return paramsToFormValues(strategy.defaults, describeParams(strategy.paramsJsonSchema));
}

function renderParams(strategy: BacktestStrategyInfo) {
  // Keyed by strategy: fields mount afresh with the new strategy's values when it changes
  return <ParamsFields key={strategy.id} fields={describeParams(strategy.paramsJsonSchema)} />;
}

function scrollToForm() {
  document.getElementById('backtest-form')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

export default function BacktestingPage() {
  const [search, setSearch] = useSearchParams();
  const activeRunId = search.get(RUN_PARAM);
  const optimising = search.get(MODE_PARAM) === 'optimise';
  const jobId = search.get(JOB_PARAM);
  const openRun = useCallback(
    (id: string | null) =>
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (id) next.set(RUN_PARAM, id);
          else next.delete(RUN_PARAM);
          // A run opens in the single-run mode (also from an optimisation's combination)
          if (id) next.delete(MODE_PARAM);
          return next;
        },
        { replace: false },
      ),
    [setSearch],
  );
  const setMode = useCallback(
    (mode: 'single' | 'optimise', job?: string | null) =>
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (mode === 'optimise') next.set(MODE_PARAM, 'optimise');
          else next.delete(MODE_PARAM);
          if (job !== undefined) {
            if (job) next.set(JOB_PARAM, job);
            else next.delete(JOB_PARAM);
          }
          return next;
        },
        { replace: false },
      ),
    [setSearch],
  );

  useBacktestNotices();
  const strategies = useStrategies();
  const runs = useBacktests();
  const run = useBacktest(activeRunId);
  useListFollowsRun(run.data);
  const create = useCreateBacktest();
  const cancel = useCancelBacktest();
  const remove = useDeleteBacktest();

  const onRun = (request: BacktestRequestInput) =>
    create.mutate(request, { onSuccess: (summary) => openRun(summary.id) });
  // The run going on screen: its detail, or right after the POST its queued summary, so the bar shows at once
  const justQueued = create.data && create.data.id === activeRunId && !run.data ? create.data : null;
  const active = run.data && isActive(run.data.status) ? run.data : justQueued;

  return (
    <RemotePage
      remote="bots"
      title="Backtesting"
      description="Replay a strategy on past klines with futures fees, slippage and funding, then compare runs."
    >
      <fieldset aria-label="Mode" className="bt:flex bt:gap-2">
        <Button
          variant={optimising ? 'outline' : 'default'}
          aria-pressed={!optimising}
          onClick={() => setMode('single')}
        >
          Single run
        </Button>
        <Button
          variant={optimising ? 'default' : 'outline'}
          aria-pressed={optimising}
          onClick={() => setMode('optimise')}
        >
          Optimise
        </Button>
      </fieldset>
      {optimising ? (
        strategies.data ? (
          <OptimiseMode
            strategies={strategies.data}
            jobId={jobId}
            openJob={(id) => setMode('optimise', id)}
            openRun={(id) => openRun(id)}
          />
        ) : strategies.error ? (
          <p role="alert" className="bt:text-sm bt:text-destructive">
            Strategies could not be loaded: {strategies.error.message}
          </p>
        ) : (
          <Spinner label="Loading strategies..." />
        )
      ) : (
        <>
          <div id="backtest-form" className="bt:scroll-mt-4">
            {strategies.isPending ? (
              <Card>
                <CardContent>
                  <Spinner label="Loading strategies..." />
                </CardContent>
              </Card>
            ) : strategies.error ? (
              <Card>
                <CardContent
                  role="alert"
                  className="bt:flex bt:flex-wrap bt:items-center bt:gap-3 bt:text-sm bt:text-destructive"
                >
                  Strategies could not be loaded: {strategies.error.message}
                  <Button variant="outline" size="sm" onClick={() => strategies.refetch()}>
                    Retry
                  </Button>
                </CardContent>
              </Card>
            ) : (
              <BacktestForm
                strategies={strategies.data}
                renderParams={renderParams}
                paramsToForm={paramsToForm}
                validateParams={parseStrategyParams}
                onRun={onRun}
                running={create.isPending || active !== null}
                serverError={create.error?.message ?? null}
              />
            )}
          </div>

          {activeRunId && run.isPending && !justQueued && <Spinner label="Loading the run..." />}
          {activeRunId && run.error && (
            <p role="alert" className="bt:text-sm bt:text-destructive">
              The run could not be loaded: {run.error.message}
            </p>
          )}
          {active && (
            <RunProgress
              run={active}
              onCancel={() => cancel.mutate(active.id)}
              canceling={cancel.isPending}
            />
          )}
          {run.data && !isActive(run.data.status) && (
            <BacktestResults detail={run.data} onRunAgain={scrollToForm} />
          )}

          <RunsComparison
            runs={runs.data}
            loading={runs.isPending}
            error={runs.error}
            onRetry={() => runs.refetch()}
            activeRunId={activeRunId}
            onOpen={openRun}
            onDelete={(id) =>
              remove.mutate(id, {
                onSuccess: () => {
                  if (id === activeRunId) openRun(null);
                },
              })
            }
            deletingId={remove.isPending ? (remove.variables ?? null) : null}
            deleteError={remove.error?.message ?? null}
          />
        </>
      )}
    </RemotePage>
  );
}
