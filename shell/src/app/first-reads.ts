import type { KestrelRuntime } from '@kestrel/shared-runtime';

/** What the first reads need of the runtime */
export type FirstReadsRuntime = Pick<KestrelRuntime, 'api' | 'storage'> & {
  session: Pick<KestrelRuntime['session'], 'state'>;
  exchanges: Pick<KestrelRuntime['exchanges'], 'connections'>;
};

/**
 * The chart's symbol as the dashboard remote picks it: the address's `?symbol=` when the watch list holds it, else
 * the list's first. The list's key and default are the remote's (`features/market/lib/watch-list.ts`); reading them
 * differently costs one unused request, never a wrong figure
 */
function chartSymbol(storage: FirstReadsRuntime['storage'], userId: string, asked: string | null): string {
  let list: unknown;
  try {
    list = JSON.parse(storage.getItem(`kestrel-watch-list:${userId}`) ?? 'null');
  } catch {
    list = null;
  }
  const symbols = Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
  const watched = symbols.length > 0 ? symbols : ['BTCUSDT'];
  return asked && watched.includes(asked) ? asked : (watched[0] as string);
}

/**
 * The reads a signed-in page shows its figures from, started with the shell's own start instead of once the page's
 * remote has loaded (about a second later on a cold page): the runtime's API client hands each reply to the
 * remote's first call of the same URL (`ApiClient.prefetch`). For /dashboard: the account cards' overview (only
 * with an exchange connected, as the page asks for it) and the chart's candles (the remote's defaults: 1h, 100).
 * The URLs are the remote's; one that no longer matches is simply not taken.
 */
export function prefetchFirstReads(
  runtime: FirstReadsRuntime,
  at: { pathname: string; search: string },
): void {
  const { status, user } = runtime.session.state;
  if (at.pathname !== '/dashboard' || status !== 'signed-in' || !user) return;
  if (Object.values(runtime.exchanges.connections).some((c) => c?.status === 'connected')) {
    runtime.api.prefetch('/api/v1/dashboard/overview');
  }
  const params = new URLSearchParams(at.search);
  const symbol = chartSymbol(runtime.storage, user.id, params.get('symbol'));
  runtime.api.prefetch(`/api/v1/market/klines/${encodeURIComponent(symbol)}`, {
    interval: params.get('interval') ?? '1h',
    limit: 100,
  });
}
