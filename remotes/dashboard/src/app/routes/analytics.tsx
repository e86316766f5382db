import '../../styles.css';
import { ConnectExchangeButton } from '@kestrel/shared-runtime/federation';
import { RemotePage, useExchangeConnections, useExchangesLoading } from '@kestrel/shared-runtime/react';
import { useSearchParams } from '@kestrel/shared-runtime/router';
import { useCallback, useMemo } from 'react';
import { useAnalytics } from '../../features/analytics/api/get-analytics';
import {
  AnalyticsView,
  type AnalyticsViewProps,
  hasHistory,
} from '../../features/analytics/components/analytics-view';
import { RangePicker } from '../../features/analytics/components/range-picker';
import {
  type AnalyticsRange,
  rangeFromParams,
  rangeToParams,
  resolveRange,
} from '../../features/analytics/lib/range';

/** The range lives in the address (`?range=90d`, `?from=…&to=…`): a reload or a shared link keeps it */
function useRange(): [AnalyticsRange, (range: AnalyticsRange) => void] {
  const [params, setParams] = useSearchParams();
  const range = useMemo(() => rangeFromParams(params), [params]);
  const set = useCallback(
    (next: AnalyticsRange) => setParams(rangeToParams(next), { replace: true }),
    [setParams],
  );
  return [range, set];
}

/**
 * The account's results over a chosen range, from the server's recorded history: metric cards, equity and drawdown,
 * the daily PnL calendar and the per-symbol table. The history needs no keys; without an exchange and without
 * history the page says how to connect one
 */
export default function AnalyticsPage() {
  const [range, setRange] = useRange();
  const connections = useExchangeConnections();
  const exchangesLoading = useExchangesLoading();
  const connected = Object.values(connections).some((c) => c.status === 'connected');
  const query = useAnalytics(range);
  const connectAction = useMemo(() => <ConnectExchangeButton />, []);

  let view: AnalyticsViewProps;
  if (query.isPending || (exchangesLoading && !query.data)) view = { state: 'loading' };
  else if (query.isError && !query.data) {
    view = { state: 'error', message: query.error.message, onRetry: () => void query.refetch() };
  } else if (!connected && query.data && !hasHistory(query.data))
    view = { state: 'no-exchange', connectAction };
  else {
    view = {
      state: 'ready',
      analytics: query.data as NonNullable<typeof query.data>,
      connected,
      connectAction,
      updating: query.isPlaceholderData,
      // A preset's calendar shows its whole span, also the days before the first record
      calendarFrom: range.preset === 'all' ? undefined : resolveRange(range, Date.now()).from,
    };
  }

  return (
    <RemotePage
      remote="dashboard"
      title="Analytics"
      actions={<RangePicker value={range} onChange={setRange} />}
    >
      <AnalyticsView {...view} />
    </RemotePage>
  );
}
