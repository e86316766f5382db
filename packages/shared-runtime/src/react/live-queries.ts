import type { Query, QueryClient } from '@tanstack/react-query';
import type { LiveData } from '../live/live-data';

/**
 * Query-key prefixes of data the live socket changes: the one place that maps pushes to queries. A page that keys
 * its queries under these gets, with no code of its own, a refetch on the account's notices, one refetch when the
 * socket is back after a pause, and polling while it is down
 */
export const LIVE_QUERY_KEYS = {
  /** The account through `/api/futures/*` (positions, orders, balances, trades…); `['futures', 'symbols', …]` aside */
  futures: ['futures'],
  /** The `/api/v1/dashboard/*` figures */
  dashboard: ['dashboard'],
  /** Market data (tickers, klines): no account notice touches it, but it is polled while paused and refetched after */
  market: ['market'],
} as const;

/** What an order, position or balance notice (RESYNC included) invalidates */
export const ACCOUNT_NOTICE_KEYS: ReadonlyArray<readonly string[]> = [
  LIVE_QUERY_KEYS.futures,
  LIVE_QUERY_KEYS.dashboard,
];

/** Second key segments under `['futures']` holding exchange rules, not account data: notices leave them alone */
const STATIC_FUTURES_SEGMENTS: ReadonlySet<unknown> = new Set(['symbols']);

/** How often queries under the live prefixes refetch while the socket is down */
export const LIVE_POLL_INTERVAL_MS = 5_000;

/**
 * Notices and a resume arriving within this window make one refetch per query, not one per notice (a burst of
 * fills, or the RESYNC notices and the resume after a gap)
 */
export const LIVE_REFETCH_COALESCE_MS = 100;

export interface LiveQueriesOptions {
  pollIntervalMs?: number;
  coalesceMs?: number;
}

const isLiveData = (query: Query) =>
  !(query.queryKey[0] === LIVE_QUERY_KEYS.futures[0] && STATIC_FUTURES_SEGMENTS.has(query.queryKey[1]));

/**
 * Keeps `client`'s live queries in step with the socket: account notices invalidate `ACCOUNT_NOTICE_KEYS`
 * (coalesced), a resume after a pause invalidates every `LIVE_QUERY_KEYS` prefix once, and while paused the active
 * queries under those prefixes refetch every `LIVE_POLL_INTERVAL_MS`. The shell calls it once per QueryClient;
 * returns the function that stops it
 */
export function connectLiveQueries(
  client: QueryClient,
  live: LiveData,
  options: LiveQueriesOptions = {},
): () => void {
  const pollMs = options.pollIntervalMs ?? LIVE_POLL_INTERVAL_MS;
  const coalesceMs = options.coalesceMs ?? LIVE_REFETCH_COALESCE_MS;
  const allKeys = Object.values(LIVE_QUERY_KEYS);

  const pending = new Set<readonly string[]>();
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  const invalidate = (keys: ReadonlyArray<readonly string[]>) => {
    for (const k of keys) pending.add(k);
    flushTimer ??= setTimeout(() => {
      flushTimer = undefined;
      const keys = [...pending];
      pending.clear();
      for (const queryKey of keys) void client.invalidateQueries({ queryKey, predicate: isLiveData });
    }, coalesceMs);
  };

  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  const poll = () => {
    pollTimer = setTimeout(() => {
      for (const queryKey of allKeys) {
        // A fetch still running from the last round is kept, not restarted
        void client.refetchQueries(
          { queryKey, type: 'active', predicate: isLiveData },
          { cancelRefetch: false },
        );
      }
      poll();
    }, pollMs);
  };
  const stopPolling = () => {
    clearTimeout(pollTimer);
    pollTimer = undefined;
  };

  const subscriptions = [
    live.accountChanges$.subscribe(() => invalidate(ACCOUNT_NOTICE_KEYS)),
    live.resumed$.subscribe(() => invalidate(allKeys)),
    live.status$.subscribe((s) => {
      if (s === 'paused' && pollTimer === undefined) poll();
      if (s === 'live') stopPolling();
    }),
  ];
  return () => {
    for (const s of subscriptions) s.unsubscribe();
    stopPolling();
    clearTimeout(flushTimer);
    flushTimer = undefined;
  };
}
