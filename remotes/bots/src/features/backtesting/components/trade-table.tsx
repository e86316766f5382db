import type { BacktestTrade } from '@kestrel/contracts/backtest';
import {
  Button,
  figureClassName,
  formatDateTime,
  formatPnl,
  formatPrice,
  formatQuantity,
  formatUsdt,
} from '@kestrel/ui';
import { type ColumnDef, DataTable, type SortingState } from '@kestrel/ui/table';
import { memo, type ReactNode, useMemo, useState } from 'react';
import {
  DEFAULT_TRADE_SORT,
  EXIT_REASON_TEXT,
  nextTradeSort,
  SIDE_TEXT,
  sortTrades,
  TRADE_COLUMNS,
  type TradeColumn,
  type TradeSort,
} from '../lib/trade-sort';

/** Rows rendered at first and added per "Show more": thousands of rows would stall the page for nothing */
export const TRADE_PAGE_SIZE = 25;

const time = 'bt:font-mono bt:tabular-nums';
const figure: Meta = { align: 'right', cellClassName: figureClassName };

type Meta = NonNullable<ColumnDef<BacktestTrade>['meta']>;

/** A column of the trade table: sortable by its raw value (`sortTrades` does the sorting), shown as `show` says */
function column(id: TradeColumn, header: string, show: (trade: BacktestTrade) => ReactNode, meta?: Meta) {
  const def: ColumnDef<BacktestTrade> = {
    id,
    header,
    accessorFn: (trade) => trade[id],
    cell: ({ row }) => show(row.original),
  };
  return meta ? { ...def, meta } : def;
}

/** The columns, in `TRADE_COLUMNS` order */
const COLUMNS: ColumnDef<BacktestTrade>[] = [
  column('id', '#', (t) => t.id, {
    align: 'right',
    cellClassName: `${figureClassName} bt:text-muted-foreground`,
  }),
  column('side', 'Side', (t) => SIDE_TEXT[t.side], {
    cellClassName: (t) => (t.side === 'long' ? 'bt:text-success' : 'bt:text-destructive'),
  }),
  column('entryTime', 'Entry (UTC)', (t) => formatDateTime(t.entryTime), { cellClassName: time }),
  column('entryPrice', 'Entry price', (t) => formatPrice(t.entryPrice), figure),
  column('exitTime', 'Exit (UTC)', (t) => formatDateTime(t.exitTime), { cellClassName: time }),
  column('exitPrice', 'Exit price', (t) => formatPrice(t.exitPrice), figure),
  column('quantity', 'Quantity', (t) => formatQuantity(t.quantity), figure),
  column('fees', 'Fees', (t) => formatUsdt(t.fees), figure),
  column('funding', 'Funding', (t) => formatUsdt(t.funding), figure),
  column('pnl', 'Net PnL', (t) => formatPnl(t.pnl).text, {
    align: 'right',
    cellClassName: (t) => `${figureClassName} bt:font-medium ${formatPnl(t.pnl).className}`,
  }),
  column('exitReason', 'Exit reason', (t) => EXIT_REASON_TEXT[t.exitReason]),
];

const tradeId = (trade: BacktestTrade) => String(trade.id);

function isTradeColumn(id: string | undefined): id is TradeColumn {
  return (TRADE_COLUMNS as readonly string[]).includes(id ?? '');
}

/** Closed round trips, first to last until a header sorts them; net PnL green or red */
export const TradeTable = memo(function TradeTable({
  trades,
  totalCount,
}: {
  trades: readonly BacktestTrade[];
  totalCount: number;
}) {
  const [shown, setShown] = useState(TRADE_PAGE_SIZE);
  const [sort, setSort] = useState<TradeSort>(DEFAULT_TRADE_SORT);
  // Up to BACKTEST_MAX_TRADES rows: sorted again only when the trades or the order change, not on "Show more"
  const sorted = useMemo(() => sortTrades(trades, sort), [trades, sort]);
  const sorting = useMemo<SortingState>(
    () => [{ id: sort.column, desc: sort.direction === 'descending' }],
    [sort],
  );
  if (trades.length === 0) {
    return (
      <p className="bt:text-sm bt:text-muted-foreground">No trades: the strategy never entered a position.</p>
    );
  }
  const visible = sorted.slice(0, shown);
  return (
    <div className="bt:flex bt:flex-col bt:gap-3">
      <DataTable
        columns={COLUMNS}
        data={visible}
        label="Trades"
        getRowId={tradeId}
        // All kept trades are sorted here (ties in entry order), then paged: the table shows the order it is given
        manualSorting
        sorting={sorting}
        onSortingChange={(next) => {
          const column = next[0]?.id;
          if (isTradeColumn(column)) setSort((current) => nextTradeSort(current, column));
        }}
      />
      <div className="bt:flex bt:flex-wrap bt:items-center bt:justify-between bt:gap-2 bt:text-xs bt:text-muted-foreground">
        <span>
          Showing {visible.length} of {totalCount} trades
          {totalCount > trades.length ? ` (the first ${trades.length} are kept)` : ''}
        </span>
        {shown < trades.length && (
          <Button variant="outline" size="sm" onClick={() => setShown((n) => n + TRADE_PAGE_SIZE)}>
            Show {Math.min(TRADE_PAGE_SIZE, trades.length - shown)} more
          </Button>
        )}
      </div>
    </div>
  );
});
