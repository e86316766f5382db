import type { KestrelRuntime } from '@kestrel/shared-runtime';
import { filterQuery, type HistoryFilter } from '../lib/history-filter';

const EXPORT_PATHS = {
  trades: '/api/v1/dashboard/history/trades/export',
  orders: '/api/v1/dashboard/history/orders/export',
  income: '/api/v1/dashboard/history/income/export',
} as const;

/** The file name the server gave (`Content-Disposition`), else a plain one */
function filenameOf(disposition: string | null, tab: string): string {
  const match = disposition?.match(/filename="([^"]+)"/);
  return match?.[1] ?? `kestrel-${tab}.csv`;
}

/**
 * Downloads every row the filter matches as CSV, as the server writes it. The API client reads JSON only, so this
 * is the one call made with the session's token directly (refreshed once on a 401, as the client does)
 */
export async function exportHistory(
  runtime: Pick<KestrelRuntime, 'config' | 'session'>,
  tab: 'trades' | 'orders' | 'income',
  filter: HistoryFilter,
): Promise<void> {
  const url = new URL(runtime.config.apiBaseUrl.replace(/\/+$/, '') + EXPORT_PATHS[tab]);
  for (const [key, value] of Object.entries(filterQuery(filter, tab))) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const send = () =>
    fetch(url, {
      headers: { authorization: `Bearer ${runtime.session.accessToken() ?? ''}`, accept: 'text/csv' },
    });
  let response = await send();
  if (response.status === 401 && (await runtime.session.refresh())) response = await send();
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { detail?: unknown } | undefined;
    throw new Error(
      typeof body?.detail === 'string' ? body.detail : `Export failed (HTTP ${response.status})`,
    );
  }
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = filenameOf(response.headers.get('content-disposition'), tab);
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download; the URL is not needed after this turn
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
