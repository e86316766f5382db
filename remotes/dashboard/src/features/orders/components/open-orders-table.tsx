import type { FuturesOrder, SymbolInfo } from '@kestrel/contracts';
import {
  Badge,
  Button,
  figureClassName,
  formatDateTime,
  formatPrice,
  formatQuantity,
  NO_VALUE,
} from '@kestrel/ui';
import { type ColumnDef, DataTable } from '@kestrel/ui/table';
import { useMemo, useState } from 'react';
import { useCancelOrder } from '../api/cancel-order';
import { describeCancel, orderTypeWords, precisionOf } from '../lib/describe-action';
import { ConfirmActionDialog } from './confirm-action-dialog';

export interface OpenOrdersTableProps {
  orders: readonly FuturesOrder[];
  infoOf: (symbol: string) => SymbolInfo | undefined;
}

const positive = (value: string) => Number(value) > 0;

/** Open orders and waiting stops / take-profits, each with a Cancel behind a confirmation */
export function OpenOrdersTable({ orders, infoOf }: OpenOrdersTableProps) {
  const [cancelling, setCancelling] = useState<FuturesOrder | null>(null);
  const cancel = useCancelOrder();
  const columns = useMemo<ColumnDef<FuturesOrder>[]>(() => {
    const p = (o: FuturesOrder) => precisionOf(infoOf(o.symbol));
    return [
      {
        accessorKey: 'symbol',
        header: 'Symbol',
        cell: ({ row }) => <span className="db:font-medium">{row.original.symbol}</span>,
      },
      {
        accessorKey: 'side',
        header: 'Side',
        cell: ({ row }) => (
          <span className={row.original.side === 'BUY' ? 'db:text-success' : 'db:text-destructive'}>
            {row.original.side === 'BUY' ? 'Buy' : 'Sell'}
          </span>
        ),
      },
      {
        accessorKey: 'type',
        header: 'Type',
        cell: ({ row }) => (
          <span className="db:inline-flex db:flex-wrap db:items-center db:gap-1 db:whitespace-nowrap">
            {orderTypeWords(row.original.type)}
            {row.original.kind === 'conditional' && <Badge variant="outline">conditional</Badge>}
            {row.original.reduceOnly && <Badge variant="secondary">reduce-only</Badge>}
            {row.original.closePosition && <Badge variant="secondary">close position</Badge>}
          </span>
        ),
      },
      {
        id: 'quantity',
        header: 'Quantity',
        accessorFn: (o) => Number(o.quantity),
        meta: { align: 'right', cellClassName: figureClassName },
        cell: ({ row }) =>
          row.original.closePosition
            ? 'Whole position'
            : formatQuantity(Number(row.original.quantity), { precision: p(row.original).quantity }),
      },
      {
        id: 'price',
        header: 'Price',
        accessorFn: (o) => Number(o.price),
        meta: { align: 'right', cellClassName: figureClassName },
        cell: ({ row }) =>
          positive(row.original.price)
            ? formatPrice(Number(row.original.price), { precision: p(row.original).price })
            : 'Market',
      },
      {
        id: 'trigger',
        header: 'Trigger',
        accessorFn: (o) => Number(o.triggerPrice),
        meta: { align: 'right', cellClassName: figureClassName },
        cell: ({ row }) =>
          positive(row.original.triggerPrice)
            ? formatPrice(Number(row.original.triggerPrice), { precision: p(row.original).price })
            : NO_VALUE,
      },
      {
        id: 'filled',
        header: 'Filled',
        accessorFn: (o) => Number(o.executedQuantity),
        meta: { align: 'right', cellClassName: figureClassName },
        cell: ({ row }) =>
          formatQuantity(Number(row.original.executedQuantity), { precision: p(row.original).quantity }),
      },
      {
        accessorKey: 'updatedAt',
        header: 'Updated (UTC)',
        meta: { cellClassName: 'db:whitespace-nowrap db:font-mono db:tabular-nums' },
        cell: ({ row }) => formatDateTime(row.original.updatedAt),
      },
      {
        id: 'actions',
        header: () => <span className="db:sr-only">Actions</span>,
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => (
          <Button
            size="sm"
            variant="outline"
            aria-label={`Cancel ${row.original.side === 'BUY' ? 'buy' : 'sell'} ${orderTypeWords(row.original.type)} ${row.original.symbol} order ${row.original.orderId}`}
            onClick={() => setCancelling(row.original)}
          >
            Cancel
          </Button>
        ),
      },
    ];
  }, [infoOf]);

  return (
    <>
      <DataTable
        label="Open orders"
        columns={columns}
        data={orders}
        getRowId={(o) => `${o.kind}-${o.orderId}`}
        initialSorting={[{ id: 'updatedAt', desc: true }]}
        empty={<p className="db:py-6 db:text-center db:text-sm db:text-muted-foreground">No open orders</p>}
      />
      {cancelling && (
        <ConfirmActionDialog
          open
          onOpenChange={(next) => !next && setCancelling(null)}
          title="Cancel order"
          sentence={describeCancel(cancelling, precisionOf(infoOf(cancelling.symbol)))}
          confirmLabel="Cancel order"
          destructive
          onConfirm={() => cancel.mutateAsync(cancelling)}
        />
      )}
    </>
  );
}
