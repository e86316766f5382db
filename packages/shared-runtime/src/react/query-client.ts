// Its own entry point (`@kestrel/shared-runtime/query`), not part of `/react`: every shared entry point is loaded
// whole with what it imports, and the public pages use `/react` without needing TanStack Query

// The main entry point by name, not `../spec`: this entry point's chunk then carries no second copy of it
import { isClientError, SPEC } from '@kestrel/shared-runtime';
import { QueryClient } from '@tanstack/react-query';
import { distinctUntilChanged, map, skip } from 'rxjs';
import type { LiveData } from '../live/live-data';
import type { TradingEnvironment } from '../state/trading-environment';
import { connectLiveQueries } from './live-queries';

/** Spec §9 "Query retries": none on HTTP 4xx, else fewer than 3 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (isClientError(error)) return false;
  // TanStack passes the number of retries already made, so this allows at most SPEC.queryMaxRetries (2) retries
  return failureCount < SPEC.queryMaxRetries;
}

/** Exponential backoff from 1 s, capped at 30 s */
export function queryRetryDelay(attemptIndex: number): number {
  return Math.min(1_000 * 2 ** attemptIndex, SPEC.queryRetryDelayCapMs);
}

/**
 * The QueryClient with the spec's cache policy (§9 "Data cache"): stale 5 min, cache 10 min, refetch every 5 min,
 * none on window focus, always on reconnect; mutations retried once. The shell creates one and shares it. With
 * `live` (the runtime's live data) its queries under `LIVE_QUERY_KEYS` follow the socket (`connectLiveQueries`).
 * With `environment`, a switch of trading environment empties the cache.
 */
export function createQueryClient(
  options: { live?: LiveData; environment?: Pick<TradingEnvironment, 'state$'> } = {},
): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: SPEC.queryStaleTimeMs,
        gcTime: SPEC.queryCacheTimeMs,
        refetchInterval: SPEC.queryRefetchIntervalMs,
        refetchOnWindowFocus: false,
        refetchOnReconnect: 'always',
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
      },
      mutations: { retry: SPEC.mutationRetries },
    },
  });
  if (options.live) connectLiveQueries(client, options.live);
  // Another environment is another account on another exchange: drop every cached answer so no page shows the
  // old environment's figures under the new badge (reset, not invalidate: stale data would be shown meanwhile)
  options.environment?.state$
    .pipe(
      map((s) => s.currentEnvironment),
      distinctUntilChanged(),
      skip(1),
    )
    .subscribe(() => void client.resetQueries());
  return client;
}

export {
  ACCOUNT_NOTICE_KEYS,
  connectLiveQueries,
  LIVE_POLL_INTERVAL_MS,
  LIVE_QUERY_KEYS,
  LIVE_REFETCH_COALESCE_MS,
  type LiveQueriesOptions,
} from './live-queries';
