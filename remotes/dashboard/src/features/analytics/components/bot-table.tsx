import type { AnalyticsBot } from '@kestrel/contracts';
import { Link } from '@kestrel/shared-runtime/router';
import { figureClassName, formatInteger, formatPercent, formatPnl, formatUsdt } from '@kestrel/ui';
import { type ColumnDef, DataTable } from '@kestrel/ui/table';
import { CardPanel } from '../../../components/card-panel';
import { paths } from '../../../config/paths';

type Meta = NonNullable<ColumnDef<AnalyticsBot>['meta']>;
const figure: Meta = { align: 'right', cellClassName: figureClassName };
const pnl = (key: 'net' | 'realizedPnl'): Meta => ({
  align: 'right',
  cellClassName: (b) => `${figureClassName} ${formatPnl(Number(b[key])).className}`,
});

/** Sorted on numbers (the answer's decimal strings would sort as text), shown formatted */
const COLUMNS: ColumnDef<AnalyticsBot>[] = [
  {
    id: 'name',
    header: 'Bot',
    accessorFn: (b) => b.name,
    cell: ({ row }) => (
      <Link
        to={paths.activeBot(row.original.botId)}
        className="db:font-medium db:underline-offset-4 db:hover:underline"
      >
        {row.original.name}
      </Link>
    ),
  },
  {
    id: 'symbol',
    header: 'Symbol',
    accessorFn: (b) => `${b.symbol} ${b.mode === 'paper' ? 'Paper' : 'Live'}`,
    cell: ({ row }) => (
      <span className="db:whitespace-nowrap">
        {row.original.symbol}{' '}
        <span className="db:text-xs db:text-muted-foreground">
          {row.original.mode === 'paper' ? 'Paper' : 'Live'}
        </span>
      </span>
    ),
  },
  {
    id: 'net',
    header: 'Net',
    accessorFn: (b) => Number(b.net),
    cell: ({ row }) => formatPnl(Number(row.original.net)).text,
    meta: pnl('net'),
  },
  {
    id: 'realizedPnl',
    header: 'Realized',
    accessorFn: (b) => Number(b.realizedPnl),
    cell: ({ row }) => formatPnl(Number(row.original.realizedPnl)).text,
    meta: pnl('realizedPnl'),
  },
  {
    id: 'commission',
    header: 'Fees',
    accessorFn: (b) => Number(b.commission),
    cell: ({ row }) => formatUsdt(Number(row.original.commission)),
    meta: figure,
  },
  {
    id: 'closingFills',
    header: 'Trades',
    accessorFn: (b) => b.closingFills,
    cell: ({ row }) => formatInteger(row.original.closingFills),
    meta: figure,
  },
  {
    id: 'winRate',
    header: 'Win rate',
    // Bots without closing fills sort below any rate
    accessorFn: (b) => (b.winRate === null ? -1 : Number(b.winRate)),
    cell: ({ row }) =>
      formatPercent(row.original.winRate === null ? null : Number(row.original.winRate), { digits: 1 }),
    meta: figure,
  },
];

/**
 * Each bot's results in the range (USDT) from the fills its log recorded, the best net result first until a header
 * sorts it. Trades are closing fills; live bots' fees are not recorded yet, so they read 0
 */
export function BotTable({ bots }: { bots: readonly AnalyticsBot[] }) {
  return (
    <CardPanel
      id="bot-table-title"
      title={
        <>
          Results per bot <span className="db:text-xs db:font-normal db:text-muted-foreground">USDT</span>
        </>
      }
    >
      <DataTable
        label="Results per bot"
        columns={COLUMNS}
        data={bots}
        getRowId={(b) => b.botId}
        empty={
          <p className="db:text-sm db:text-muted-foreground">
            No bot traded in this range.{' '}
            <Link to="/bot-hub" className="db:underline db:underline-offset-4">
              Start a bot
            </Link>
          </p>
        }
      />
    </CardPanel>
  );
}
