import {
  type HistoryOrder,
  type HistoryTrade,
  type IncomeEntry,
  incomeTypeName,
  type PlacedBy,
} from '@kestrel/contracts';
import { Link } from '@kestrel/shared-runtime/router';
import {
  formatAssetAmount,
  formatDateTime,
  formatPnl,
  formatPrice,
  formatQuantity,
  formatUsdt,
  NO_VALUE,
} from '@kestrel/ui';
import type { ColumnDef } from '@kestrel/ui/table';
import { paths } from '../../../config/paths';
import { decimalsOf, SORTABLE } from '../lib/history-filter';

/** A price or size at the precision the exchange wrote it with (the symbol's), thousands separated */
const asWritten = (value: string, format: typeof formatPrice) =>
  format(Number(value), { precision: decimalsOf(value) });
const sideClass = (side: string) => (side === 'BUY' ? 'db:text-success' : 'db:text-destructive');
const sideText = (side: string) => (side === 'BUY' ? 'Buy' : 'Sell');
/** "TAKE_PROFIT_MARKET" → "Take profit market" */
export function words(code: string): string {
  const text = code.toLowerCase().replaceAll('_', ' ');
  return text.replace('pnl', 'PnL').replace(/^./, (c) => c.toUpperCase());
}
const figure = { align: 'right' as const, cellClassName: 'db:font-mono db:tabular-nums' };

/** A trade's or an order's side, in words and in its colour */
function sideColumn<T extends { side: string }>(): ColumnDef<T, unknown> {
  return {
    id: 'side',
    header: 'Side',
    cell: ({ row }) => sideText(row.original.side),
    meta: { cellClassName: (item) => sideClass(item.side) },
  };
}

/** Who placed the order: one of your bots (a link to its card), you, the kill switch, or something outside Kestrel */
export function PlacedByCell({ by }: { by: PlacedBy | undefined }) {
  if (!by) return NO_VALUE;
  switch (by.kind) {
    case 'bot':
      return by.botId !== null ? (
        <Link
          to={paths.activeBot(by.botId)}
          className="db:font-medium db:underline-offset-4 db:hover:underline"
        >
          {by.botName ?? 'A bot'}
        </Link>
      ) : (
        <span className="db:text-muted-foreground">A deleted bot</span>
      );
    case 'manual':
      return 'You';
    case 'kill_switch':
      return 'Kill switch';
    case 'outside':
      return <span className="db:text-muted-foreground">Outside Kestrel</span>;
  }
}

function placedByColumn<T extends { placedBy?: PlacedBy }>(): ColumnDef<T, unknown> {
  return {
    id: 'placedBy',
    header: 'Placed by',
    cell: ({ row }) => <PlacedByCell by={row.original.placedBy} />,
  };
}

/**
 * Only the columns the server can sort on get a sorting header. TanStack sorts only columns with an accessor;
 * the rows come sorted from the server, so the accessor reads nothing
 */
function sortable<T>(tab: keyof typeof SORTABLE, columns: ColumnDef<T, unknown>[]): ColumnDef<T, unknown>[] {
  return columns.map((c) =>
    SORTABLE[tab].includes(c.id ?? '')
      ? { ...c, accessorFn: () => null, enableSorting: true }
      : { ...c, enableSorting: false },
  );
}

export const TRADE_COLUMNS = sortable<HistoryTrade>('trades', [
  { id: 'time', header: 'Time (UTC)', cell: ({ row }) => formatDateTime(row.original.time) },
  { id: 'symbol', header: 'Symbol', cell: ({ row }) => row.original.symbol },
  sideColumn(),
  {
    id: 'price',
    header: 'Price',
    cell: ({ row }) => asWritten(row.original.price, formatPrice),
    meta: figure,
  },
  {
    id: 'quantity',
    header: 'Quantity',
    cell: ({ row }) => asWritten(row.original.quantity, formatQuantity),
    meta: figure,
  },
  {
    id: 'quoteQuantity',
    header: 'Value',
    cell: ({ row }) => formatUsdt(Number(row.original.quoteQuantity)),
    meta: figure,
  },
  {
    id: 'realizedPnl',
    header: 'Realized PnL',
    cell: ({ row }) => formatPnl(Number(row.original.realizedPnl)).text,
    meta: {
      align: 'right',
      cellClassName: (t) => `db:font-mono db:tabular-nums ${formatPnl(Number(t.realizedPnl)).className}`,
    },
  },
  {
    id: 'commission',
    header: 'Fee',
    cell: ({ row }) =>
      `${formatAssetAmount(Number(row.original.commission), row.original.commissionAsset)} ${row.original.commissionAsset}`,
    meta: figure,
  },
  { id: 'maker', header: 'Role', cell: ({ row }) => (row.original.maker ? 'Maker' : 'Taker') },
  placedByColumn(),
]);

export const ORDER_COLUMNS = sortable<HistoryOrder>('orders', [
  { id: 'time', header: 'Placed (UTC)', cell: ({ row }) => formatDateTime(row.original.time) },
  { id: 'symbol', header: 'Symbol', cell: ({ row }) => row.original.symbol },
  sideColumn(),
  {
    id: 'type',
    header: 'Type',
    cell: ({ row }) => `${words(row.original.type)}${row.original.reduceOnly ? ' · reduce-only' : ''}`,
  },
  {
    id: 'price',
    header: 'Price',
    cell: ({ row }) =>
      Number(row.original.price) === 0 ? 'Market' : asWritten(row.original.price, formatPrice),
    meta: figure,
  },
  {
    id: 'averagePrice',
    header: 'Avg price',
    // The average carries more decimals than the tick: shown at the limit price's, else by magnitude
    cell: ({ row }) =>
      Number(row.original.averagePrice) === 0
        ? NO_VALUE
        : formatPrice(Number(row.original.averagePrice), {
            precision: Number(row.original.price) === 0 ? undefined : decimalsOf(row.original.price),
          }),
    meta: figure,
  },
  {
    id: 'quantity',
    header: 'Filled / quantity',
    cell: ({ row }) =>
      `${asWritten(row.original.executedQuantity, formatQuantity)} / ${asWritten(row.original.quantity, formatQuantity)}`,
    meta: figure,
  },
  {
    id: 'triggerPrice',
    header: 'Trigger',
    cell: ({ row }) =>
      Number(row.original.triggerPrice) === 0 ? NO_VALUE : asWritten(row.original.triggerPrice, formatPrice),
    meta: figure,
  },
  { id: 'status', header: 'Status', cell: ({ row }) => words(row.original.status) },
  { id: 'updatedAt', header: 'Updated (UTC)', cell: ({ row }) => formatDateTime(row.original.updatedAt) },
  placedByColumn(),
]);

export const INCOME_COLUMNS = sortable<IncomeEntry>('income', [
  { id: 'time', header: 'Time (UTC)', cell: ({ row }) => formatDateTime(row.original.time) },
  { id: 'incomeType', header: 'Type', cell: ({ row }) => incomeTypeName(row.original.incomeType) },
  { id: 'symbol', header: 'Symbol', cell: ({ row }) => row.original.symbol || NO_VALUE },
  {
    id: 'income',
    header: 'Amount',
    cell: ({ row }) =>
      `${formatAssetAmount(Number(row.original.income), row.original.asset, { signed: true })} ${row.original.asset}`,
    meta: {
      align: 'right',
      cellClassName: (i) => `db:font-mono db:tabular-nums ${formatPnl(Number(i.income)).className}`,
    },
  },
  { id: 'info', header: 'Note', cell: ({ row }) => row.original.info || NO_VALUE },
]);
