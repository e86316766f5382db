import {
  type OptimisationDetail,
  OptimisationDetailResponseSchema,
  OptimisationListResponseSchema,
  type OptimisationRequestInput,
  OptimisationResultsResponseSchema,
  type OptimisationRow,
  type OptimisationSummary,
  OptimisationSummaryResponseSchema,
} from '@kestrel/contracts/backtest';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useActiveJobPolling } from '../../api/get-backtest';

/** Query keys of /api/v1/optimisations, broad to narrow */
export const optimisationKeys = {
  all: ['optimisations'] as const,
  list: () => [...optimisationKeys.all, 'list'] as const,
  detail: (id: string) => [...optimisationKeys.all, 'detail', id] as const,
  results: (id: string) => [...optimisationKeys.all, 'results', id] as const,
};

const path = (id: string) => `/api/v1/optimisations/${encodeURIComponent(id)}`;

export async function createOptimisation(
  api: ApiClient,
  request: OptimisationRequestInput,
): Promise<OptimisationSummary> {
  return unwrap(
    await api.post('/api/v1/optimisations', request, { schema: OptimisationSummaryResponseSchema }),
  ).data;
}

/** Queues a job; 400 answers carry a `detail` naming the field */
export function useCreateOptimisation() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: OptimisationRequestInput) => createOptimisation(api, request),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: optimisationKeys.list() }),
  });
}

export function useOptimisations() {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: optimisationKeys.list(),
    queryFn: async ({ signal }) =>
      unwrap(await api.get('/api/v1/optimisations', { schema: OptimisationListResponseSchema, signal })).data,
  });
}

/** One job; polled while it is queued or running (every second without the live socket, else every 5 s) */
export function useOptimisation(id: string | null) {
  const { api } = useKestrelRuntime();
  const refetchInterval = useActiveJobPolling();
  return useQuery({
    queryKey: optimisationKeys.detail(id ?? ''),
    queryFn: async ({ signal }): Promise<OptimisationDetail> =>
      unwrap(await api.get(path(id ?? ''), { schema: OptimisationDetailResponseSchema, signal })).data,
    enabled: id !== null,
    refetchInterval,
  });
}

/** Every combination of a completed job (fetched once it has completed) */
export function useOptimisationResults(id: string | null, completed: boolean) {
  const { api } = useKestrelRuntime();
  return useQuery({
    queryKey: optimisationKeys.results(id ?? ''),
    queryFn: async ({ signal }): Promise<OptimisationRow[]> =>
      unwrap(
        await api.get(`${path(id ?? '')}/results`, { schema: OptimisationResultsResponseSchema, signal }),
      ).data,
    enabled: id !== null && completed,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useCancelOptimisation() {
  const { api } = useKestrelRuntime();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.post(`${path(id)}/cancel`, undefined, { schema: OptimisationSummaryResponseSchema }))
        .data,
    retry: false,
    onSuccess: (summary) => {
      void queryClient.invalidateQueries({ queryKey: optimisationKeys.detail(summary.id) });
      void queryClient.invalidateQueries({ queryKey: optimisationKeys.list() });
    },
  });
}
