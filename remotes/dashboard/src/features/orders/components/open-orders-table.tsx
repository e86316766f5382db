import type { FuturesOrder, OrderIntent, SymbolInfo } from '@kestrel/contracts';
import { Button, cn, figureClassName, formatPrice, formatQuantity, NO_VALUE } from '@kestrel/ui';
import { type ColumnDef, DataTable } from '@kestrel/ui/table';
import { useMemo, useState } from 'react';
import { useCancelOrder } from '../api/cancel-order';
import { describeCancel, describeOrder, orderTypeWords, precisionOf } from '../lib/describe-action';
import { ConfirmActionDialog } from './confirm-action-dialog';

export interface OpenOrdersTableProps {
  orders: readonly FuturesOrder[];
  infoOf: (symbol: string) => SymbolInfo | undefined;
  /** Orders sent whose answer was lost: the server is asking the exchange about them (never sends them again) */
  unknown?: readonly OrderIntent[];
}

/** Each order whose outcome the server is still resolving, said plainly, until it is known */
function UnknownOrders({
  intents,
  infoOf,
  listed,
}: {
  intents: readonly OrderIntent[];
  infoOf: OpenOrdersTableProps['infoOf'];
  /** Client ids the exchange lists among open orders: those are there, only the server's record lags */
  listed: ReadonlySet<string>;
}) {
  return (
    <ul aria-label="Orders with status unknown" className="db:mb-3 db:flex db:flex-col db:gap-2">
      {intents.map((i) => (
        <li
          key={i.id}
          role="status"
          className="db:flex db:flex-col db:gap-0.5 db:rounded-xl db:border db:border-warning db:p-3 db:text-sm"
        >
          <span>
            <span className="db:font-medium db:text-warning">Status unknown</span>:{' '}
            {describeOrder(i.request, precisionOf(infoOf(i.symbol)))}
          </span>
          <span className="db:text-xs db:text-muted-foreground">
            The exchange’s answer was lost. Kestrel is asking the exchange about order{' '}
            <span className="db:font-mono db:break-all">{i.clientOrderId}</span>
            {listed.has(i.clientOrderId) ? ' (the exchange lists it among the open orders below)' : ''} and
            will not send it again.
          </span>
        </li>
      ))}
    </ul>
  );
}

const positive = (value: string) => Number(value) > 0;
/** The Cancel button's name: which order it cancels */
const cancelLabel = (o: FuturesOrder) =>
  `Cancel ${o.side === 'BUY' ? 'buy' : 'sell'} ${orderTypeWords(o.type)} ${o.symbol} order ${o.orderId}`;

/** Open orders and waiting stops / take-profits, each with a Cancel behind a confirmation */
export function OpenOrdersTable({ orders, infoOf, unknown = [] }: OpenOrdersTableProps) {
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
        id: 'order',
        header: 'Order',
        accessorFn: (o) => `${o.side} ${o.type}`,
        cell: ({ row }) => {
          const o = row.original;
          const flags = [
            o.kind === 'conditional' ? 'conditional' : null,
            o.reduceOnly ? 'reduce-only' : null,
            o.closePosition ? 'closes position' : null,
          ].filter(Boolean);
          return (
            <span className="db:flex db:flex-col db:whitespace-nowrap">
              <span>
                <span className={o.side === 'BUY' ? 'db:text-success' : 'db:text-destructive'}>
                  {o.side === 'BUY' ? 'Buy' : 'Sell'}
                </span>{' '}
                {orderTypeWords(o.type)}
              </span>
              {flags.length > 0 && (
                <span className="db:text-xs db:text-muted-foreground">{flags.join(' · ')}</span>
              )}
            </span>
          );
        },
      },
      {
        id: 'quantity',
        header: 'Filled / quantity',
        accessorFn: (o) => Number(o.quantity),
        meta: { align: 'right', cellClassName: cn(figureClassName, 'db:whitespace-nowrap') },
        cell: ({ row }) => {
          const o = row.original;
          const filled = formatQuantity(Number(o.executedQuantity), { precision: p(o).quantity });
          return o.closePosition
            ? 'Whole position'
            : `${filled} / ${formatQuantity(Number(o.quantity), { precision: p(o).quantity })}`;
        },
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
        cell: ({ row }) => {
          const o = row.original;
          // A trailing stop has no fixed trigger: its callback rate (and where it starts trailing) say when it fires
          if (o.type === 'TRAILING_STOP_MARKET' && o.callbackRate !== null) {
            const from = o.activationPrice !== null && positive(o.activationPrice);
            return `${Number(o.callbackRate)} % trail${
              from ? ` from ${formatPrice(Number(o.activationPrice), { precision: p(o).price })}` : ''
            }`;
          }
          return positive(o.triggerPrice)
            ? formatPrice(Number(o.triggerPrice), { precision: p(o).price })
            : NO_VALUE;
        },
      },
      {
        id: 'actions',
        header: () => <span className="db:sr-only">Cancel</span>,
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => (
          <Button
            size="sm"
            variant="outline"
            aria-label={cancelLabel(row.original)}
            onClick={() => setCancelling(row.original)}
          >
            Cancel
          </Button>
        ),
      },
    ];
  }, [infoOf]);

  const listed = useMemo(() => new Set(orders.map((o) => o.clientOrderId)), [orders]);
  // Newest first, as the exchange lists them
  const sorted = useMemo(() => [...orders].sort((a, b) => b.updatedAt - a.updatedAt), [orders]);
  return (
    <>
      {unknown.length > 0 && <UnknownOrders intents={unknown} infoOf={infoOf} listed={listed} />}
      {orders.length === 0 ? (
        <p className="db:py-6 db:text-center db:text-sm db:text-muted-foreground">No open orders</p>
      ) : (
        <>
          {/* Phones: one line per order with its Cancel in view; wider screens: the table */}
          <ul aria-label="Open orders" className="db:flex db:flex-col db:gap-2 db:md:hidden">
            {sorted.map((o) => {
              const p = precisionOf(infoOf(o.symbol));
              return (
                <li
                  key={`${o.kind}-${o.orderId}`}
                  className="db:flex db:items-center db:gap-3 db:rounded-xl db:border db:border-border db:p-3 db:text-sm"
                >
                  <div className="db:flex db:min-w-0 db:flex-1 db:flex-col db:gap-0.5">
                    <span>
                      <span className={o.side === 'BUY' ? 'db:text-success' : 'db:text-destructive'}>
                        {o.side === 'BUY' ? 'Buy' : 'Sell'}
                      </span>{' '}
                      <span className="db:font-medium">{o.symbol}</span> {orderTypeWords(o.type)}
                      {o.reduceOnly ? ', reduce-only' : ''}
                    </span>
                    <span className="db:font-mono db:tabular-nums db:text-muted-foreground">
                      {o.closePosition
                        ? 'Whole position'
                        : formatQuantity(Number(o.quantity), { precision: p.quantity })}
                      {positive(o.price) ? ` @ ${formatPrice(Number(o.price), { precision: p.price })}` : ''}
                      {positive(o.triggerPrice)
                        ? ` · trigger ${formatPrice(Number(o.triggerPrice), { precision: p.price })}`
                        : ''}
                    </span>
                  </div>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={cancelLabel(o)}
                    onClick={() => setCancelling(o)}
                  >
                    Cancel
                  </Button>
                </li>
              );
            })}
          </ul>
          <div className="db:hidden db:md:block">
            <DataTable
              label="Open orders"
              columns={columns}
              data={sorted}
              getRowId={(o) => `${o.kind}-${o.orderId}`}
            />
          </div>
        </>
      )}
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
