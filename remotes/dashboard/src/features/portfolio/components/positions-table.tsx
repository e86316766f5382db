import type { FuturesPosition, SymbolInfo } from '@kestrel/contracts';
import {
  Badge,
  cn,
  figureClassName,
  formatPercent,
  formatPnl,
  formatPrice,
  formatQuantity,
  formatUsdt,
  NO_VALUE,
  stepDecimals,
  toneClassName,
  toneOf,
} from '@kestrel/ui';
import { type ColumnDef, DataTable } from '@kestrel/ui/table';
import { type ReactNode, useMemo } from 'react';
import { liquidationPrice, positionLeverage, positionRoe } from '../lib/position-figures';

export interface PositionsTableProps {
  positions: readonly FuturesPosition[];
  infoOf: (symbol: string) => SymbolInfo | undefined;
  /** The row's actions (close, leverage), composed by the page */
  renderActions: (position: FuturesPosition, leverage: number | null) => ReactNode;
}

const isShort = (p: FuturesPosition) => p.positionSide === 'SHORT' || Number(p.amount) < 0;

/** Open positions as Binance lists them: size, entry, mark, liquidation, margin, leverage, PnL and ROE */
export function PositionsTable({ positions, infoOf, renderActions }: PositionsTableProps) {
  const columns = useMemo<ColumnDef<FuturesPosition>[]>(() => {
    const price = (p: FuturesPosition, value: number | null) => {
      const info = infoOf(p.symbol);
      return formatPrice(value, { precision: info ? stepDecimals(info.tickSize) : undefined });
    };
    return [
      {
        accessorKey: 'symbol',
        header: 'Symbol',
        cell: ({ row }) => <span className="db:font-medium">{row.original.symbol}</span>,
      },
      {
        id: 'side',
        header: 'Side',
        accessorFn: (p) => (isShort(p) ? 'Short' : 'Long'),
        cell: ({ row }) =>
          isShort(row.original) ? (
            <Badge variant="destructive">Short</Badge>
          ) : (
            <Badge variant="success">Long</Badge>
          ),
      },
      {
        id: 'size',
        header: 'Size',
        accessorFn: (p) => Math.abs(Number(p.amount)),
        meta: { align: 'right', cellClassName: figureClassName },
        cell: ({ row }) => {
          const info = infoOf(row.original.symbol);
          return `${formatQuantity(Math.abs(Number(row.original.amount)), {
            precision: info ? stepDecimals(info.stepSize) : undefined,
          })}${info ? ` ${info.baseAsset}` : ''}`;
        },
      },
      {
        id: 'entry',
        header: 'Entry',
        accessorFn: (p) => Number(p.entryPrice),
        meta: { align: 'right', cellClassName: figureClassName },
        cell: ({ row }) => price(row.original, Number(row.original.entryPrice)),
      },
      {
        id: 'mark',
        header: 'Mark',
        accessorFn: (p) => Number(p.markPrice),
        meta: { align: 'right', cellClassName: figureClassName },
        cell: ({ row }) => price(row.original, Number(row.original.markPrice)),
      },
      {
        id: 'liquidation',
        header: 'Liq. price',
        accessorFn: (p) => liquidationPrice(p) ?? 0,
        meta: { align: 'right', cellClassName: cn(figureClassName, 'db:text-warning') },
        cell: ({ row }) => price(row.original, liquidationPrice(row.original)),
      },
      {
        id: 'margin',
        header: 'Margin',
        accessorFn: (p) => Number(p.initialMargin),
        meta: { align: 'right', cellClassName: figureClassName },
        cell: ({ row }) => formatUsdt(Number(row.original.initialMargin)),
      },
      {
        id: 'leverage',
        header: 'Leverage',
        accessorFn: (p) => positionLeverage(p) ?? 0,
        meta: { align: 'right', cellClassName: figureClassName },
        cell: ({ row }) => {
          const leverage = positionLeverage(row.original);
          return leverage === null ? NO_VALUE : `${leverage}x`;
        },
      },
      {
        id: 'pnl',
        header: 'Unrealized PnL',
        accessorFn: (p) => Number(p.unrealizedPnl),
        meta: {
          align: 'right',
          cellClassName: (p) => cn(figureClassName, formatPnl(Number(p.unrealizedPnl)).className),
        },
        cell: ({ row }) => formatPnl(Number(row.original.unrealizedPnl)).text,
      },
      {
        id: 'roe',
        header: 'ROE',
        accessorFn: (p) => positionRoe(p) ?? 0,
        meta: {
          align: 'right',
          cellClassName: (p) => cn(figureClassName, toneClassName(toneOf(positionRoe(p), { digits: 4 }))),
        },
        cell: ({ row }) => formatPercent(positionRoe(row.original), { signed: true }),
      },
      {
        id: 'actions',
        header: () => <span className="db:sr-only">Actions</span>,
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => renderActions(row.original, positionLeverage(row.original)),
      },
    ];
  }, [infoOf, renderActions]);

  return (
    <DataTable
      label="Positions"
      columns={columns}
      data={positions}
      getRowId={(p) => `${p.symbol}-${p.positionSide}`}
      empty={<p className="db:py-6 db:text-center db:text-sm db:text-muted-foreground">No open positions</p>}
    />
  );
}
