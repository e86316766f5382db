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
  stepDecimals,
  toneClassName,
  toneOf,
} from '@kestrel/ui';
import { type ColumnDef, DataTable } from '@kestrel/ui/table';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { liquidationPrice, positionLeverage, positionRoe } from '../lib/position-figures';

export interface PositionsTableProps {
  positions: readonly FuturesPosition[];
  infoOf: (symbol: string) => SymbolInfo | undefined;
  /** The row's close actions, composed by the page */
  renderClose: (position: FuturesPosition) => ReactNode;
  /** The leverage, as a control that changes it, composed by the page */
  renderLeverage: (position: FuturesPosition, leverage: number | null) => ReactNode;
}

/**
 * The page's row actions, read by the action cells through context rather than captured by the columns: the table
 * renders a cell function as a component, so new columns (the open orders changed, say) would be new components and
 * remount every action cell, closing a dialog the trader has open in one. Context reaches the memoised rows too
 */
const RowActions = createContext<Pick<PositionsTableProps, 'renderClose' | 'renderLeverage'> | null>(null);

function CloseCell({ position }: { position: FuturesPosition }) {
  return useContext(RowActions)?.renderClose(position) ?? null;
}

function LeverageCell({ position }: { position: FuturesPosition }) {
  return useContext(RowActions)?.renderLeverage(position, positionLeverage(position)) ?? null;
}

const isShort = (p: FuturesPosition) => p.positionSide === 'SHORT' || Number(p.amount) < 0;

/** Open positions as Binance lists them: size, entry, mark, liquidation, margin, leverage, PnL and ROE */
export function PositionsTable({ positions, infoOf, renderClose, renderLeverage }: PositionsTableProps) {
  const columns = useMemo<ColumnDef<FuturesPosition>[]>(() => {
    const price = (p: FuturesPosition, value: number | null) => {
      const info = infoOf(p.symbol);
      return formatPrice(value, { precision: info ? stepDecimals(info.tickSize) : undefined });
    };
    return [
      {
        accessorKey: 'symbol',
        header: 'Symbol',
        cell: ({ row }) => (
          <span className="db:inline-flex db:items-center db:gap-2 db:whitespace-nowrap">
            <span className="db:font-medium">{row.original.symbol}</span>
            {isShort(row.original) ? (
              <Badge variant="destructive">Short</Badge>
            ) : (
              <Badge variant="success">Long</Badge>
            )}
          </span>
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
        cell: ({ row }) => <LeverageCell position={row.original} />,
      },
      {
        id: 'pnl',
        header: 'PnL (ROE)',
        accessorFn: (p) => Number(p.unrealizedPnl),
        meta: {
          align: 'right',
          cellClassName: (p) => cn(figureClassName, formatPnl(Number(p.unrealizedPnl)).className),
        },
        // Binance's own column: the unrealized PnL in USDT, the return on the margin under it
        cell: ({ row }) => (
          <span className="db:flex db:flex-col db:items-end db:leading-tight">
            <span>{formatPnl(Number(row.original.unrealizedPnl)).text}</span>
            <span
              className={cn('db:text-xs', toneClassName(toneOf(positionRoe(row.original), { digits: 4 })))}
            >
              {formatPercent(positionRoe(row.original), { signed: true })}
            </span>
          </span>
        ),
      },
      {
        id: 'close',
        header: 'Close',
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => <CloseCell position={row.original} />,
      },
    ];
  }, [infoOf]);
  const actions = useMemo(() => ({ renderClose, renderLeverage }), [renderClose, renderLeverage]);

  if (positions.length === 0) {
    return <p className="db:py-6 db:text-center db:text-sm db:text-muted-foreground">No open positions</p>;
  }
  return (
    <>
      {/* Phones get one card per position (PnL and Close in view); wider screens the full table */}
      <ul aria-label="Positions" className="db:flex db:flex-col db:gap-3 db:md:hidden">
        {positions.map((p) => (
          <PositionCard
            key={`${p.symbol}-${p.positionSide}`}
            position={p}
            info={infoOf(p.symbol)}
            renderClose={renderClose}
            renderLeverage={renderLeverage}
          />
        ))}
      </ul>
      <div className="db:hidden db:md:block">
        <RowActions.Provider value={actions}>
          <DataTable
            label="Positions"
            columns={columns}
            data={positions}
            getRowId={(p) => `${p.symbol}-${p.positionSide}`}
          />
        </RowActions.Provider>
      </div>
    </>
  );
}

function CardFigure({
  term,
  children,
  className,
}: {
  term: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className="db:flex db:flex-col">
      <dt className="db:text-xs db:text-muted-foreground">{term}</dt>
      <dd className={cn('db:font-mono db:tabular-nums', className)}>{children}</dd>
    </div>
  );
}

function PositionCard({
  position: p,
  info,
  renderClose,
  renderLeverage,
}: {
  position: FuturesPosition;
  info: SymbolInfo | undefined;
  renderClose: PositionsTableProps['renderClose'];
  renderLeverage: PositionsTableProps['renderLeverage'];
}) {
  const precision = info ? stepDecimals(info.tickSize) : undefined;
  const pnl = formatPnl(Number(p.unrealizedPnl));
  const roe = positionRoe(p);
  return (
    <li className="db:flex db:flex-col db:gap-3 db:rounded-xl db:border db:border-border db:p-3">
      <div className="db:flex db:items-center db:gap-2">
        <span className="db:font-medium">{p.symbol}</span>
        {isShort(p) ? <Badge variant="destructive">Short</Badge> : <Badge variant="success">Long</Badge>}
        <span className="db:ml-auto">{renderLeverage(p, positionLeverage(p))}</span>
      </div>
      <dl className="db:grid db:grid-cols-3 db:gap-2 db:text-sm">
        <CardFigure term="Size">
          {formatQuantity(Math.abs(Number(p.amount)), {
            precision: info ? stepDecimals(info.stepSize) : undefined,
          })}
        </CardFigure>
        <CardFigure term="Unrealized PnL" className={pnl.className}>
          {pnl.text}
        </CardFigure>
        <CardFigure term="ROE" className={toneClassName(toneOf(roe, { digits: 4 }))}>
          {formatPercent(roe, { signed: true })}
        </CardFigure>
        <CardFigure term="Entry">{formatPrice(Number(p.entryPrice), { precision })}</CardFigure>
        <CardFigure term="Mark">{formatPrice(Number(p.markPrice), { precision })}</CardFigure>
        <CardFigure term="Liq. price" className="db:text-warning">
          {formatPrice(liquidationPrice(p), { precision })}
        </CardFigure>
        <CardFigure term="Margin">{formatUsdt(Number(p.initialMargin))}</CardFigure>
      </dl>
      {renderClose(p)}
    </li>
  );
}
