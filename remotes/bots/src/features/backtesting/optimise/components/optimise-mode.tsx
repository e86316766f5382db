import type { BacktestStrategyInfo, OptimisationDetail } from '@kestrel/contracts/backtest';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  formatDate,
  formatInteger,
  Spinner,
} from '@kestrel/ui';
import { paths } from '../../../../config/paths';
import { useCreateBacktest } from '../../api/create-backtest';
import { isActive } from '../../api/get-backtest';
import {
  useCancelOptimisation,
  useCreateOptimisation,
  useOptimisation,
  useOptimisations,
} from '../api/optimisation-api';
import { useOptimisationNotices } from '../api/use-optimisation-notices';
import { OptimisationView } from './optimisation-view';
import { OptimiseForm } from './optimise-form';

interface Props {
  strategies: readonly BacktestStrategyInfo[];
  /** The job on screen (`?job=<id>`) */
  jobId: string | null;
  openJob: (id: string | null) => void;
  /** Shows a single backtest (switches the page to its run) */
  openRun: (id: string) => void;
}

/** The "Optimise" mode of /backtesting: the form, the job on screen and the past jobs */
export function OptimiseMode({ strategies, jobId, openJob, openRun }: Props) {
  useOptimisationNotices();
  const jobs = useOptimisations();
  const job = useOptimisation(jobId);
  const create = useCreateOptimisation();
  const cancel = useCancelOptimisation();
  const backtest = useCreateBacktest();
  const justQueued = create.data && create.data.id === jobId && !job.data ? create.data : null;
  const running = create.isPending || (job.data ? isActive(job.data.status) : justQueued !== null);

  const openCombination = (detail: OptimisationDetail, params: Record<string, unknown>) => {
    const request = detail.request as {
      symbol: string;
      interval: OptimisationDetail['interval'];
      startTime: number;
      endTime: number;
      costs?: Record<string, unknown>;
    };
    backtest.mutate(
      {
        strategy: detail.strategy,
        params,
        symbol: request.symbol,
        interval: request.interval,
        startTime: request.startTime,
        endTime: request.endTime,
        ...(request.costs ? { costs: request.costs } : {}),
      },
      { onSuccess: (summary) => openRun(summary.id) },
    );
  };

  // A combination as a new bot: the same strategy, market and parameters, on /create-bot to review and save
  const createBotHref = (detail: OptimisationDetail, params: Record<string, unknown>) => {
    const request = detail.request as { symbol: string; params?: Record<string, unknown> };
    return paths.createBot.getHref({
      strategy: detail.strategy,
      symbol: request.symbol,
      interval: detail.interval,
      // The job's fixed parameters under the combination's swept ones
      params: { ...request.params, ...params },
    });
  };

  return (
    <div className="bt:flex bt:flex-col bt:gap-4">
      <OptimiseForm
        strategies={strategies}
        running={running}
        serverError={create.error?.message ?? null}
        onRun={(request) => create.mutate(request, { onSuccess: (summary) => openJob(summary.id) })}
      />
      {jobId && job.isPending && !justQueued && <Spinner label="Loading the optimisation..." />}
      {jobId && job.error && (
        <p role="alert" className="bt:text-sm bt:text-destructive">
          The optimisation could not be loaded: {job.error.message}
        </p>
      )}
      {backtest.error && (
        <p role="alert" className="bt:text-sm bt:text-destructive">
          The backtest could not be started: {backtest.error.message}
        </p>
      )}
      {job.data && (
        <OptimisationView
          job={job.data}
          onCancel={() => cancel.mutate(job.data.id)}
          canceling={cancel.isPending}
          onOpenCombination={(params) => openCombination(job.data, params)}
          createBotHref={(params) => createBotHref(job.data, params)}
          opening={backtest.isPending}
        />
      )}
      {justQueued && !job.data && <Spinner label="Queued..." />}
      <Card>
        <CardHeader>
          <CardTitle className="bt:text-base">Past optimisations</CardTitle>
        </CardHeader>
        <CardContent>
          {jobs.isPending ? (
            <Spinner label="Loading optimisations..." />
          ) : jobs.error ? (
            <p role="alert" className="bt:text-sm bt:text-destructive">
              Optimisations could not be loaded: {jobs.error.message}{' '}
              <Button variant="outline" size="sm" onClick={() => jobs.refetch()}>
                Retry
              </Button>
            </p>
          ) : jobs.data.length === 0 ? (
            <p className="bt:text-sm bt:text-muted-foreground">
              No optimisation yet: sweep some parameters above.
            </p>
          ) : (
            <ul className="bt:flex bt:flex-col bt:divide-y">
              {jobs.data.map((j) => (
                <li key={j.id} className="bt:flex bt:flex-wrap bt:items-center bt:gap-2 bt:py-2 bt:text-sm">
                  <Button
                    variant="link"
                    className="bt:h-auto bt:p-0"
                    aria-current={j.id === jobId ? 'true' : undefined}
                    onClick={() => openJob(j.id)}
                  >
                    {j.strategyName} · {j.symbol} {j.interval}
                  </Button>
                  <span className="bt:text-muted-foreground">
                    {formatDate(j.startTime)} → {formatDate(j.endTime - 1)} · {formatInteger(j.combinations)}{' '}
                    combinations
                  </span>
                  <Badge variant={j.status === 'failed' ? 'destructive' : 'secondary'}>{j.status}</Badge>
                  {j.stats && (
                    <Badge
                      variant={
                        j.stats.passes.dsr && j.stats.passes.pbo && j.stats.passes.randomEntry
                          ? 'outline'
                          : 'warning'
                      }
                    >
                      {j.stats.passes.dsr && j.stats.passes.pbo && j.stats.passes.randomEntry
                        ? 'passes'
                        : 'likely overfit'}
                    </Badge>
                  )}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
