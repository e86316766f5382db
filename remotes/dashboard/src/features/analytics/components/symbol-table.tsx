import type { AnalyticsSymbol } from '@kestrel/contracts';
import { figureClassName, formatInteger, formatPercent, formatPnl, formatUsdt } from '@kestrel/ui';
import { type ColumnDef, DataTable } from '@kestrel/ui/table';
import { CardPanel } from '../../../components/card-panel';

type Meta = NonNullable<ColumnDef<AnalyticsSymbol>['meta']>;
const figure: Meta = { align: 'right', cellClassName: figureClassName };
const pnl = (key: 'net' | 'realizedPnl'): Meta => ({
  align: 'right',
  cellClassName: (s) => `${figureClassName} ${formatPnl(Number(s[key])).className}`,
});

/** Sorted on numbers (the answer's decimal strings would sort as text), shown formatted */
const COLUMNS: ColumnDef<AnalyticsSymbol>[] = [
  { id: 'symbol', header: 'Symbol', accessorFn: (s) => s.symbol, meta: { cellClassName: 'db:font-medium' } },
  {
    id: 'net',
    header: 'Net',
    accessorFn: (s) => Number(s.net),
    cell: ({ row }) => formatPnl(Number(row.original.net)).text,
    meta: pnl('net'),
  },
  {
    id: 'realizedPnl',
    header: 'Realized',
    accessorFn: (s) => Number(s.realizedPnl),
    cell: ({ row }) => formatPnl(Number(row.original.realizedPnl)).text,
    meta: pnl('realizedPnl'),
  },
  {
    id: 'commission',
    header: 'Fees',
    accessorFn: (s) => Number(s.commission),
    cell: ({ row }) => formatUsdt(Number(row.original.commission)),
    meta: figure,
  },
  {
    id: 'fundingFee',
    header: 'Funding',
    accessorFn: (s) => Number(s.fundingFee),
    cell: ({ row }) => formatUsdt(Number(row.original.fundingFee)),
    meta: figure,
  },
  {
    id: 'closingFills',
    header: 'Closing fills',
    accessorFn: (s) => s.closingFills,
    cell: ({ row }) => formatInteger(row.original.closingFills),
    meta: figure,
  },
  {
    id: 'winRate',
    header: 'Win rate',
    // Symbols without closing fills sort below any rate
    accessorFn: (s) => (s.winRate === null ? -1 : Number(s.winRate)),
    cell: ({ row }) =>
      formatPercent(row.original.winRate === null ? null : Number(row.original.winRate), { digits: 1 }),
    meta: figure,
  },
];

/** Each traded symbol's results in the range (USDT), the best net result first until a header sorts it */
export function SymbolTable({ symbols }: { symbols: readonly AnalyticsSymbol[] }) {
  return (
    <CardPanel
      id="symbol-table-title"
      title={
        <>
          Results per symbol <span className="db:text-xs db:font-normal db:text-muted-foreground">USDT</span>
        </>
      }
    >
      <DataTable
        label="Results per symbol"
        columns={COLUMNS}
        data={symbols}
        getRowId={(s) => s.symbol}
        empty={<p className="db:text-sm db:text-muted-foreground">No symbol traded in this range.</p>}
      />
    </CardPanel>
  );
}
