import type { BacktestNotice } from '@kestrel/contracts';
import type { BacktestDetail, BacktestSummary } from '@kestrel/contracts/backtest';
import { useLiveEvent } from '@kestrel/shared-runtime/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { backtestKeys } from '../api/backtest-keys';
import { isActive } from '../api/get-backtest';

/**
 * Applies `notifications/backtest` pushes: progress and status go straight into the cached run and list row (the
 * bar moves without a request); when a run stops, its detail and the list are fetched again for the results.
 */
/**
 * A stopped run never runs again: a progress push the server sent just before it stopped the run can arrive after
 * the stop (the download finishing its page while Cancel is handled), and must not bring the bar back
 */
function revives(run: BacktestSummary, notice: BacktestNotice): boolean {
  return !isActive(run.status) && isActive(notice.status);
}

export function useBacktestNotices(): void {
  const queryClient = useQueryClient();
  useLiveEvent('backtest', (notice: BacktestNotice) => {
    const patch = <T extends BacktestSummary>(run: T): T =>
      run.id === notice.backtestId && !revives(run, notice)
        ? { ...run, status: notice.status, progress: notice.progress, error: notice.error ?? run.error }
        : run;
    queryClient.setQueryData<BacktestDetail>(backtestKeys.detail(notice.backtestId), (run) =>
      run ? patch(run) : run,
    );
    queryClient.setQueryData<BacktestSummary[]>(backtestKeys.list(), (runs) => runs?.map(patch));
    if (!isActive(notice.status)) {
      void queryClient.invalidateQueries({ queryKey: backtestKeys.detail(notice.backtestId) });
      void queryClient.invalidateQueries({ queryKey: backtestKeys.list() });
    }
  });
}

/**
 * Keeps the run's row in the past-runs list in step with the run on screen, whose detail is fresher while it is
 * polled (socket down): its status, progress and figures are copied over, so the list needs no refetch of its own
 */
export function useListFollowsRun(run: BacktestDetail | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!run) return;
    queryClient.setQueryData<BacktestSummary[]>(backtestKeys.list(), (runs) =>
      runs?.map((row) =>
        row.id === run.id &&
        (row.status !== run.status || row.progress !== run.progress || row.metrics !== run.metrics)
          ? {
              ...row,
              status: run.status,
              progress: run.progress,
              error: run.error,
              finishedAt: run.finishedAt,
              metrics: run.metrics,
            }
          : row,
      ),
    );
  }, [queryClient, run]);
}
