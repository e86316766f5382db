import type { Ticker, TickerNotice } from '@kestrel/contracts';
import { cn, figureClassName, formatPercent, formatPrice, toneClassName, toneOf } from '@kestrel/ui';
import { type ColumnDef, DataTable, type SortingState } from '@kestrel/ui/table';
import { useMemo, useState } from 'react';
import type { SymbolPrecision } from '../../../api/get-symbol-info';
import { keepWatchRows, type WatchRow } from '../lib/watch-rows';

/** Largest 24 h volume first: where a trader looks first */
const INITIAL_SORTING: SortingState = [{ id: 'quoteVolume', desc: true }];

const compactUsd = new Intl.NumberFormat('en-US', {
  notation: 'compact',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export interface MarketWatchTableProps {
  tickers: readonly Ticker[];
  /** Latest live push per symbol */
  live: ReadonlyMap<string, TickerNotice>;
  precisions: ReadonlyMap<string, SymbolPrecision>;
  /** The chart's symbol (its row is marked) */
  selected: string;
  onSelect: (symbol: string) => void;
  /** Takes a symbol off the list (offered while more than one is left) */
  onRemove?: (symbol: string) => void;
}

/** The watch list: sortable by symbol, last price, 24 h change and volume; a symbol's button picks the chart */
export function MarketWatchTable({
  tickers,
  live,
  precisions,
  selected,
  onSelect,
  onRemove,
}: MarketWatchTableProps) {
  // A tick re-renders the one row it moved: rows of symbols without a new push stay the same objects
  const [watchRows] = useState(keepWatchRows);
  const rows = useMemo(() => watchRows(tickers, live), [watchRows, tickers, live]);
  const columns = useMemo<ColumnDef<WatchRow, unknown>[]>(
    () => [
      {
        id: 'symbol',
        accessorFn: (r) => r.symbol,
        header: 'Symbol',
        cell: ({ row }) => (
          <button
            type="button"
            aria-pressed={row.original.symbol === selected}
            onClick={() => onSelect(row.original.symbol)}
            className="db:cursor-pointer db:font-medium db:underline-offset-4 db:hover:underline db:focus-visible:outline-2 db:focus-visible:outline-ring"
          >
            {row.original.symbol}
          </button>
        ),
      },
      {
        id: 'lastPrice',
        accessorFn: (r) => r.lastPrice,
        header: 'Last',
        cell: ({ row }) =>
          formatPrice(row.original.lastPrice, { precision: precisions.get(row.original.symbol)?.price }),
        meta: { align: 'right', cellClassName: figureClassName },
      },
      {
        id: 'changePercent',
        accessorFn: (r) => r.changePercent,
        header: '24h %',
        cell: ({ row }) => formatPercent(row.original.changePercent / 100, { signed: true }),
        meta: {
          align: 'right',
          cellClassName: (r: WatchRow) =>
            cn(figureClassName, toneClassName(toneOf(r.changePercent, { digits: 2 }))),
        },
      },
      {
        id: 'quoteVolume',
        accessorFn: (r) => r.quoteVolume,
        header: () => (
          <>
            24h vol<span className="db:sr-only"> (USDT)</span>
          </>
        ),
        cell: ({ row }) => compactUsd.format(row.original.quoteVolume),
        meta: { align: 'right', cellClassName: figureClassName },
      },
      ...(onRemove && tickers.length > 1
        ? [
            {
              id: 'remove',
              enableSorting: false,
              header: () => <span className="db:sr-only">Remove</span>,
              cell: ({ row }) => (
                <button
                  type="button"
                  aria-label={`Remove ${row.original.symbol} from the watch list`}
                  onClick={() => onRemove(row.original.symbol)}
                  className="db:cursor-pointer db:rounded db:px-1 db:text-muted-foreground db:hover:text-foreground db:focus-visible:outline-2 db:focus-visible:outline-ring"
                >
                  <span aria-hidden="true">×</span>
                </button>
              ),
              meta: { cellClassName: 'db:w-6 db:px-1' },
            } satisfies ColumnDef<WatchRow, unknown>,
          ]
        : []),
    ],
    [precisions, selected, onSelect, onRemove, tickers.length],
  );
  return (
    <DataTable
      label="Market watch"
      columns={columns}
      data={rows}
      getRowId={(r) => r.symbol}
      initialSorting={INITIAL_SORTING}
      rowClassName={(r) => (r.symbol === selected ? 'db:bg-muted/60' : undefined)}
    />
  );
}
