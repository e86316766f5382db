import type {
  OptimisationDetail,
  OptimisationNotice,
  OptimisationSummary,
} from '@kestrel/contracts/backtest';
import { useLiveEvent } from '@kestrel/shared-runtime/react';
import { useQueryClient } from '@tanstack/react-query';
import { isActive } from '../../api/get-backtest';
import { optimisationKeys } from './optimisation-api';

/**
 * `notifications/optimisation` pushes move the job's bar in the cache; a job that stopped is fetched again for its
 * results. A stopped job never goes back to running (a late progress push after a cancel).
 */
export function useOptimisationNotices(): void {
  const queryClient = useQueryClient();
  useLiveEvent('optimisation', (notice: OptimisationNotice) => {
    const patch = <T extends OptimisationSummary>(job: T): T =>
      job.id === notice.optimisationId && !(!isActive(job.status) && isActive(notice.status))
        ? { ...job, status: notice.status, progress: notice.progress, error: notice.error ?? job.error }
        : job;
    queryClient.setQueryData<OptimisationDetail>(optimisationKeys.detail(notice.optimisationId), (job) =>
      job ? patch(job) : job,
    );
    queryClient.setQueryData<OptimisationSummary[]>(optimisationKeys.list(), (jobs) => jobs?.map(patch));
    if (!isActive(notice.status)) {
      void queryClient.invalidateQueries({ queryKey: optimisationKeys.detail(notice.optimisationId) });
      void queryClient.invalidateQueries({ queryKey: optimisationKeys.list() });
    }
  });
}
