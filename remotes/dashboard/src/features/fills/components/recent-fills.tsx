import type { FuturesTrade } from '@kestrel/contracts';
import {
  cn,
  figureClassName,
  formatAssetAmount,
  formatDateTime,
  formatPnl,
  formatPrice,
  formatQuantity,
} from '@kestrel/ui';
import { type ColumnDef, DataTable, type SortingState } from '@kestrel/ui/table';
import { useMemo } from 'react';

/** Decimals of a symbol's prices and quantities */
export interface FillPrecision {
  price: number;
  quantity: number;
}

const NEWEST_FIRST: SortingState = [{ id: 'time', desc: true }];

export interface RecentFillsTableProps {
  fills: readonly FuturesTrade[];
  precisions: ReadonlyMap<string, FillPrecision>;
}

/** The latest fills: time (UTC), symbol, side, price, quantity, realized PnL and fee */
export function RecentFillsTable({ fills, precisions }: RecentFillsTableProps) {
  const columns = useMemo<ColumnDef<FuturesTrade, unknown>[]>(
    () => [
      {
        id: 'time',
        accessorFn: (t) => t.time,
        header: 'Time (UTC)',
        cell: ({ row }) => formatDateTime(row.original.time),
        meta: { cellClassName: 'db:whitespace-nowrap db:font-mono db:tabular-nums' },
      },
      { id: 'symbol', accessorFn: (t) => t.symbol, header: 'Symbol' },
      {
        id: 'side',
        accessorFn: (t) => t.side,
        header: 'Side',
        cell: ({ row }) => (row.original.side === 'BUY' ? 'Buy' : 'Sell'),
        meta: {
          cellClassName: (t: FuturesTrade) => (t.side === 'BUY' ? 'db:text-success' : 'db:text-destructive'),
        },
      },
      {
        id: 'price',
        accessorFn: (t) => Number(t.price),
        header: 'Price',
        cell: ({ row }) =>
          formatPrice(Number(row.original.price), { precision: precisions.get(row.original.symbol)?.price }),
        meta: { align: 'right', cellClassName: figureClassName },
      },
      {
        id: 'quantity',
        accessorFn: (t) => Number(t.quantity),
        header: 'Quantity',
        cell: ({ row }) =>
          formatQuantity(Number(row.original.quantity), {
            precision: precisions.get(row.original.symbol)?.quantity,
          }),
        meta: { align: 'right', cellClassName: figureClassName },
      },
      {
        id: 'realizedPnl',
        accessorFn: (t) => Number(t.realizedPnl),
        header: 'Realized PnL',
        cell: ({ row }) => formatPnl(Number(row.original.realizedPnl)).text,
        meta: {
          align: 'right',
          cellClassName: (t: FuturesTrade) => cn(figureClassName, formatPnl(Number(t.realizedPnl)).className),
        },
      },
      {
        id: 'commission',
        accessorFn: (t) => Number(t.commission),
        header: 'Fee',
        cell: ({ row }) => {
          const { commission, commissionAsset } = row.original;
          return `${formatAssetAmount(Number(commission), commissionAsset)} ${commissionAsset}`;
        },
        meta: { align: 'right', cellClassName: cn(figureClassName, 'db:whitespace-nowrap') },
      },
    ],
    [precisions],
  );
  return (
    <DataTable
      label="Recent fills"
      columns={columns}
      data={fills}
      getRowId={(t) => `${t.symbol}-${t.id}`}
      initialSorting={NEWEST_FIRST}
    />
  );
}
