import type { DashboardPortfolio, PortfolioAsset } from '@kestrel/contracts';
import { cn, figureClassName, formatPercent, formatPnl, formatUsdt, NO_VALUE } from '@kestrel/ui';
import { FigureGrid } from '@kestrel/ui/figures';
import { type ColumnDef, DataTable } from '@kestrel/ui/table';

type Asset = PortfolioAsset;

const usdt = (value: string) => formatUsdt(Number(value));

/** The account's totals in USDT: what a trader checks first (margin balance, free margin, open PnL, margin ratio) */
export function AccountFigures({ totals }: { totals: DashboardPortfolio['totals'] }) {
  const pnl = formatPnl(Number(totals.unrealizedPnl));
  const margin = Number(totals.marginBalance);
  const ratio = margin > 0 ? Number(totals.maintMargin) / margin : null;
  return (
    <FigureGrid
      label="Account"
      size="lg"
      className="db:sm:grid-cols-2 db:lg:grid-cols-5"
      figures={[
        { key: 'margin', label: 'Margin balance', value: usdt(totals.marginBalance) },
        { key: 'wallet', label: 'Wallet balance', value: usdt(totals.walletBalance) },
        { key: 'pnl', label: 'Unrealized PnL', value: pnl.text, valueClassName: pnl.className },
        { key: 'available', label: 'Available', value: usdt(totals.availableBalance) },
        {
          key: 'ratio',
          label: 'Margin ratio',
          value: formatPercent(ratio),
          className: cn(
            'db:col-span-2 db:lg:col-span-1',
            ratio !== null && ratio >= 0.8 && 'db:text-destructive',
          ),
        },
      ]}
    />
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
