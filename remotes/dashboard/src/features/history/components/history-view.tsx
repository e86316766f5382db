import type { TradeHistoryPage } from '@kestrel/contracts';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { Button, formatAssetAmount, formatDate, formatInteger, formatPnl } from '@kestrel/ui';
import type { SortingState } from '@kestrel/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@kestrel/ui/tabs';
import { useMemo, useState } from 'react';
import { exportHistory } from '../api/export-history';
import { useIncomeHistory, useOrderHistory, useTradeHistory } from '../api/get-history';
import { useHistorySymbols } from '../api/get-history-symbols';
import { useLateFills } from '../api/use-late-fills';
import { type HistoryFilter, presetFrom } from '../lib/history-filter';
import { INCOME_COLUMNS, ORDER_COLUMNS, TRADE_COLUMNS } from './history-columns';
import { HistoryFilters, type HistoryTab, type RangeChoice } from './history-filters';
import { HistoryTable } from './history-table';

const TABS: { id: HistoryTab; label: string; noun: string }[] = [
  { id: 'trades', label: 'Trades', noun: 'trades' },
  { id: 'orders', label: 'Orders', noun: 'orders' },
  { id: 'income', label: 'Income', noun: 'income entries' },
];

/** "1,234 trades, fees 12.34 USDT, realized PnL +5.00": sums over every matching fill, not just those loaded */
function tradeTotals(page: TradeHistoryPage): string {
  const fees = page.totals.commission
    .map((c) => `${formatAssetAmount(Number(c.amount), c.asset)} ${c.asset}`)
    .join(' + ');
  const count = `${formatInteger(page.total)} ${page.total === 1 ? 'trade' : 'trades'}`;
  return `${count}, fees ${fees || '0'}, realized PnL ${formatPnl(Number(page.totals.realizedPnl)).text} USDT`;
}

/** Flattens the loaded pages into rows, and their total (the server's count of every matching row) */
function flatten<T>(data: { pages: { items: T[]; total: number }[] } | undefined) {
  return { rows: data?.pages.flatMap((p) => p.items) ?? [], total: data?.pages[0]?.total };
}

/** The tab's query in the shape the table wants */
function tableState(query: {
  status: 'pending' | 'error' | 'success';
  error: Error | null;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}) {
  return {
    status: query.status,
    error: query.error?.message,
    onRetry: () => void query.refetch(),
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: () => void query.fetchNextPage(),
  };
}

/**
 * The history of a connected account: Trades, Orders and Income tabs over one filter bar, each table paged from
 * the server as it scrolls and sorted by the server when a header is clicked; totals of what the filter matches;
 * an export of it as CSV
 */
export function HistoryView({ now = Date.now }: { now?: () => number }) {
  const runtime = useKestrelRuntime();
  const [tab, setTab] = useState<HistoryTab>('trades');
  const [filter, setFilter] = useState<HistoryFilter>(() => ({
    from: presetFrom('30d', now()),
    sort: 'time',
    order: 'desc',
  }));
  const [range, setRange] = useState<RangeChoice>(() => ({
    preset: '30d',
    fromDay: formatDate(now() - 7 * 86_400_000),
    toDay: formatDate(now()),
  }));
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string>();

  const trades = useTradeHistory(filter, tab === 'trades');
  const orders = useOrderHistory(filter, tab === 'orders');
  const income = useIncomeHistory(filter, tab === 'income');
  const symbols = useHistorySymbols(true);
  useLateFills();

  const sorting: SortingState = useMemo(() => [{ id: filter.sort, desc: filter.order === 'desc' }], [filter]);
  const onSortingChange = (next: SortingState) => {
    const first = next[0];
    if (first) setFilter({ ...filter, sort: first.id, order: first.desc ? 'desc' : 'asc' });
  };
  const onTabChange = (value: string) => {
    const next = value as HistoryTab;
    setTab(next);
    // Each tab sorts on its own columns and types: start the new one newest first, its type unset
    setFilter({ ...filter, sort: 'time', order: 'desc', type: undefined, status: undefined });
  };
  const onExport = async () => {
    setExporting(true);
    setExportError(undefined);
    try {
      await exportHistory(runtime, tab, filter);
    } catch (err) {
      setExportError(err instanceof Error ? err.message : String(err));
    } finally {
      setExporting(false);
    }
  };

  const resetKey = JSON.stringify(filter);
  const t = useMemo(() => flatten(trades.data), [trades.data]);
  const o = useMemo(() => flatten(orders.data), [orders.data]);
  const i = useMemo(() => flatten(income.data), [income.data]);
  const current = { trades: t, orders: o, income: i }[tab];
  const noun = TABS.find((x) => x.id === tab)?.noun ?? '';
  const firstTradePage = trades.data?.pages[0];
  const summary =
    current.total === undefined
      ? undefined
      : tab === 'trades' && firstTradePage
        ? tradeTotals(firstTradePage)
        : `${formatInteger(current.total)} ${noun}`;

  return (
    <Tabs value={tab} onValueChange={onTabChange}>
      <div className="db:flex db:flex-wrap db:items-center db:justify-between db:gap-3">
        <TabsList aria-label="History">
          {TABS.map((x) => (
            <TabsTrigger key={x.id} value={x.id}>
              {x.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <div className="db:flex db:items-center db:gap-2">
          {exportError && (
            <p role="alert" className="db:text-xs db:text-destructive">
              {exportError}
            </p>
          )}
          <Button variant="outline" size="sm" onClick={() => void onExport()} disabled={exporting}>
            {exporting ? 'Exporting…' : 'Export CSV'}
          </Button>
        </div>
      </div>
      <HistoryFilters
        tab={tab}
        filter={filter}
        onFilterChange={setFilter}
        range={range}
        onRangeChange={setRange}
        symbols={symbols.data ?? []}
        now={now}
      />
      <p aria-live="polite" className="db:min-h-5 db:text-sm db:text-muted-foreground">
        {summary}
      </p>
      <TabsContent value="trades">
        <HistoryTable
          label="Trades"
          columns={TRADE_COLUMNS}
          rows={t.rows}
          getRowId={(x) => `${x.symbol}-${x.id}`}
          sorting={sorting}
          onSortingChange={onSortingChange}
          emptyTitle="No trades in this range"
          resetKey={resetKey}
          {...tableState(trades)}
        />
      </TabsContent>
      <TabsContent value="orders">
        <HistoryTable
          label="Orders"
          columns={ORDER_COLUMNS}
          rows={o.rows}
          getRowId={(x) => `${x.symbol}-${x.orderId}`}
          sorting={sorting}
          onSortingChange={onSortingChange}
          emptyTitle="No orders in this range"
          resetKey={resetKey}
          {...tableState(orders)}
        />
      </TabsContent>
      <TabsContent value="income">
        <HistoryTable
          label="Income"
          columns={INCOME_COLUMNS}
          rows={i.rows}
          getRowId={(x) => `${x.incomeType}-${x.tranId}`}
          sorting={sorting}
          onSortingChange={onSortingChange}
          emptyTitle="No income in this range"
          resetKey={resetKey}
          {...tableState(income)}
        />
      </TabsContent>
    </Tabs>
  );
}
