import type { RiskPosition } from '@kestrel/contracts';
import {
  cn,
  figureClassName,
  formatPnl,
  formatPrice,
  formatQuantity,
  formatUsdt,
  NO_VALUE,
} from '@kestrel/ui';
import { type ColumnDef, DataTable } from '@kestrel/ui/table';
import { useMemo } from 'react';

type Precisions = ReadonlyMap<string, { price: number; quantity: number }>;

/** Fewer ATRs to liquidation than this is one bad hour or two away: shown in red */
export const ATR_DANGER = 3;

const side = (p: RiskPosition) =>
  p.positionSide !== 'BOTH'
    ? p.positionSide === 'LONG'
      ? 'Long'
      : 'Short'
    : Number(p.amount) >= 0
      ? 'Long'
      : 'Short';

const fixed = (n: number | null, digits: number) =>
  n === null
    ? NO_VALUE
    : n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * Open positions with their distance to liquidation, in percent of the mark and in ATR(14) of 1h candles; those
 * columns come first, so a phone shows them without scrolling sideways
 */
export function RiskPositionsTable({
  positions,
  precisions,
}: {
  positions: readonly RiskPosition[];
  precisions: Precisions;
}) {
  const columns = useMemo<ColumnDef<RiskPosition>[]>(
    () => [
      { id: 'symbol', header: 'Symbol', accessorKey: 'symbol' },
      {
        id: 'side',
        header: 'Side',
        accessorFn: side,
        meta: {
          cellClassName: (p: RiskPosition) =>
            side(p) === 'Long' ? 'db:text-success' : 'db:text-destructive',
        },
      },
      {
        id: 'distance',
        header: 'To liq. %',
        accessorFn: (p) => p.liquidationDistancePercent ?? Number.POSITIVE_INFINITY,
        cell: ({ row }) => {
          const d = row.original.liquidationDistancePercent;
          return d === null ? NO_VALUE : `${fixed(d, 2)}%`;
        },
        meta: { align: 'right', cellClassName: figureClassName },
      },
      {
        id: 'atrs',
        header: 'To liq. ATRs',
        accessorFn: (p) => p.liquidationDistanceAtr ?? Number.POSITIVE_INFINITY,
        cell: ({ row }) => fixed(row.original.liquidationDistanceAtr, 1),
        meta: {
          align: 'right',
          cellClassName: (p: RiskPosition) =>
            cn(
              figureClassName,
              p.liquidationDistanceAtr !== null &&
                p.liquidationDistanceAtr < ATR_DANGER &&
                'db:text-destructive',
            ),
        },
      },
      {
        id: 'pnl',
        header: 'uPnL',
        accessorFn: (p) => Number(p.unrealizedPnl),
        cell: ({ getValue }) => {
          const pnl = formatPnl(getValue<number>());
          return <span className={pnl.className}>{pnl.text}</span>;
        },
        meta: { align: 'right', cellClassName: figureClassName },
      },
      {
        id: 'size',
        header: 'Size',
        accessorFn: (p) => Math.abs(Number(p.amount)),
        cell: ({ row }) =>
          formatQuantity(Math.abs(Number(row.original.amount)), {
            precision: precisions.get(row.original.symbol)?.quantity,
          }),
        meta: { align: 'right', cellClassName: figureClassName },
      },
      {
        id: 'notional',
        header: 'Notional',
        accessorFn: (p) => Math.abs(Number(p.notional)),
        cell: ({ getValue }) => formatUsdt(getValue<number>()),
        meta: { align: 'right', cellClassName: figureClassName },
      },
      {
        id: 'mark',
        header: 'Mark',
        accessorFn: (p) => Number(p.markPrice),
        cell: ({ row }) =>
          formatPrice(Number(row.original.markPrice), {
            precision: precisions.get(row.original.symbol)?.price,
          }),
        meta: { align: 'right', cellClassName: figureClassName },
      },
      {
        id: 'liquidation',
        header: 'Liq. price',
        accessorFn: (p) => Number(p.liquidationPrice),
        cell: ({ row }) =>
          Number(row.original.liquidationPrice) > 0
            ? formatPrice(Number(row.original.liquidationPrice), {
                precision: precisions.get(row.original.symbol)?.price,
              })
            : NO_VALUE,
        meta: { align: 'right', cellClassName: figureClassName },
      },
    ],
    [precisions],
  );
  return (
    <DataTable
      label="Positions at risk"
      columns={columns}
      data={positions}
      getRowId={(p) => `${p.symbol}-${p.positionSide}`}
      initialSorting={[{ id: 'atrs', desc: false }]}
      empty="No open positions"
    />
  );
}
