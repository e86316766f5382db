import type { FuturesAccountInfo, PortfolioAsset } from '@kestrel/contracts';
import { cn, figureClassName, formatPercent, formatPnl, formatUsdt, NO_VALUE } from '@kestrel/ui';
import { type ColumnDef, DataTable } from '@kestrel/ui/table';

type Asset = PortfolioAsset;

const usdt = (value: string) => formatUsdt(Number(value));

function Figure({
  term,
  value,
  className,
  valueClassName,
}: {
  term: string;
  value: string;
  className?: string;
  valueClassName?: string;
}) {
  return (
    <div
      className={cn(
        'db:flex db:min-w-0 db:flex-col db:gap-1 db:rounded-xl db:border db:border-border db:bg-card db:p-4',
        className,
      )}
    >
      <dt className="db:text-xs db:font-medium db:text-muted-foreground db:uppercase db:tracking-wide">
        {term}
      </dt>
      <dd
        className={cn('db:truncate db:font-mono db:text-xl db:font-semibold db:tabular-nums', valueClassName)}
      >
        {value}
      </dd>
    </div>
  );
}

/** The account's totals in USDT: what a trader checks first (margin balance, free margin, open PnL, margin ratio) */
export function AccountFigures({ account }: { account: FuturesAccountInfo }) {
  const pnl = formatPnl(Number(account.totalUnrealizedPnl));
  const margin = Number(account.totalMarginBalance);
  const ratio = margin > 0 ? Number(account.totalMaintMargin) / margin : null;
  return (
    <dl aria-label="Account" className="db:grid db:grid-cols-2 db:gap-3 db:lg:grid-cols-5">
      <Figure term="Margin balance" value={usdt(account.totalMarginBalance)} />
      <Figure term="Wallet balance" value={usdt(account.totalWalletBalance)} />
      <Figure term="Unrealized PnL" value={pnl.text} valueClassName={pnl.className} />
      <Figure term="Available" value={usdt(account.availableBalance)} />
      <Figure
        term="Margin ratio"
        value={formatPercent(ratio)}
        className={cn(
          'db:col-span-2 db:lg:col-span-1',
          ratio !== null && ratio >= 0.8 && 'db:text-destructive',
        )}
      />
    </dl>
  );
}

const columns: ColumnDef<Asset>[] = [
  {
    accessorKey: 'asset',
    header: 'Asset',
    cell: ({ row }) => <span className="db:font-medium">{row.original.asset}</span>,
  },
  {
    id: 'wallet',
    header: 'Wallet balance',
    accessorFn: (a) => Number(a.walletBalance),
    meta: { align: 'right', cellClassName: figureClassName },
    cell: ({ row }) => usdt(row.original.walletBalance),
  },
  {
    id: 'pnl',
    header: 'Unrealized PnL',
    accessorFn: (a) => Number(a.unrealizedPnl),
    meta: {
      align: 'right',
      cellClassName: (a) => cn(figureClassName, formatPnl(Number(a.unrealizedPnl)).className),
    },
    cell: ({ row }) => formatPnl(Number(row.original.unrealizedPnl)).text,
  },
  {
    id: 'margin',
    header: 'Margin balance',
    accessorFn: (a) => Number(a.marginBalance),
    meta: { align: 'right', cellClassName: figureClassName },
    cell: ({ row }) => usdt(row.original.marginBalance),
  },
  {
    id: 'available',
    header: 'Available',
    accessorFn: (a) => Number(a.availableBalance),
    meta: { align: 'right', cellClassName: figureClassName },
    cell: ({ row }) => usdt(row.original.availableBalance),
  },
  {
    id: 'value',
    header: 'Value (USDT)',
    accessorFn: (a) => (a.usdtValue === null ? -1 : Number(a.usdtValue)),
    meta: { align: 'right', cellClassName: figureClassName },
    cell: ({ row }) => (row.original.usdtValue === null ? NO_VALUE : usdt(row.original.usdtValue)),
  },
  {
    id: 'share',
    header: 'Share',
    accessorFn: (a) => (a.share === null ? -1 : Number(a.share)),
    meta: { align: 'right', cellClassName: figureClassName },
    cell: ({ row }) =>
      row.original.share === null ? NO_VALUE : formatPercent(Number(row.original.share), { digits: 1 }),
  },
];

/**
 * Balances per asset of the futures wallet (USDT, and BTC, USDC or BNB in multi-asset mode), valued in USDT; an
 * asset without a USDT price shows no value rather than a wrong one
 */
export function BalancesTable({ assets }: { assets: readonly PortfolioAsset[] }) {
  return (
    <DataTable
      label="Balances"
      columns={columns}
      data={assets}
      getRowId={(a) => a.asset}
      initialSorting={[{ id: 'value', desc: true }]}
      empty={
        <p className="db:py-6 db:text-center db:text-sm db:text-muted-foreground">
          No balance in this futures wallet
        </p>
      }
    />
  );
}
