import {
  type BacktestDetail,
  BacktestDetailResponseSchema,
  type BacktestStatus,
} from '@kestrel/contracts/backtest';
import { type ApiClient, unwrap } from '@kestrel/shared-runtime';
import { useKestrelRuntime, useSocketStatus } from '@kestrel/shared-runtime/react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { backtestKeys } from './backtest-keys';

/** How often a running run is polled while the live socket is down */
export const BACKTEST_POLL_MS = 1_000;
/**
 * With the socket up, pushes move the bar; this slow poll only guards against a push lost while the socket
 * reconnected (a missed "completed" would otherwise leave the bar stuck)
 */
export const BACKTEST_SAFETY_POLL_MS = 5_000;

export function isActive(status: BacktestStatus): boolean {
  return status === 'queued' || status === 'running';
}

/**
 * A job's poll (a backtest's, an optimisation's) while it is queued or running: every second without the live
 * socket, else the safety poll; none once it has ended
 */
export function useActiveJobPolling() {
  const socket = useSocketStatus();
  return (query: { state: { data?: { status: BacktestStatus } | undefined } }): number | false => {
    const status = query.state.data?.status;
    if (status === undefined || !isActive(status)) return false;
    return socket === 'connected' ? BACKTEST_SAFETY_POLL_MS : BACKTEST_POLL_MS;
  };
}

export async function getBacktest(api: ApiClient, id: string, signal?: AbortSignal): Promise<BacktestDetail> {
  return unwrap(
    await api.get(`/api/v1/backtests/${encodeURIComponent(id)}`, {
      schema: BacktestDetailResponseSchema,
      signal,
    }),
  ).data;
}

export function getBacktestQueryOptions(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: backtestKeys.detail(id),
    queryFn: ({ signal }) => getBacktest(api, id, signal),
  });
}

/** One run with its results; while it is queued or running, polled every second when the live socket is down */
export function useBacktest(id: string | null) {
  const { api } = useKestrelRuntime();
  const refetchInterval = useActiveJobPolling();
  return useQuery({
    ...getBacktestQueryOptions(api, id ?? ''),
    enabled: id !== null,
    refetchInterval,
  });
}
