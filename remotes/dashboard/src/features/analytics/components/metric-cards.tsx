import type { Analytics } from '@kestrel/contracts';
import { cn, formatInteger, formatPercent, formatPnl, formatRatio, formatUsdt, NO_VALUE } from '@kestrel/ui';
import type { ReactNode } from 'react';

const frame =
  'db:flex db:min-w-0 db:flex-col db:gap-1 db:rounded-xl db:border db:border-border db:bg-card db:p-3 db:text-card-foreground db:sm:p-4';

const num = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));

function Card({
  title,
  value,
  valueClassName,
  children,
}: {
  title: string;
  value: string;
  valueClassName?: string;
  children?: ReactNode;
}) {
  const id = `analytics-card-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <article aria-labelledby={id} className={frame}>
      <h3 id={id} className="db:text-sm db:font-medium db:text-muted-foreground">
        {title}
      </h3>
      <p
        className={cn(
          'db:font-mono db:text-lg db:font-semibold db:tabular-nums db:sm:text-2xl',
          valueClassName,
        )}
      >
        {value}
      </p>
      {children && <p className="db:text-xs db:text-muted-foreground">{children}</p>}
    </article>
  );
}

/** Net result, drawdown, win rate, profit factor, Sharpe and Sortino, fees and funding of the range */
export function MetricCards({ analytics: a }: { analytics: Analytics }) {
  const net = formatPnl(num(a.totals.net));
  const dd = a.maxDrawdown;
  const t = a.totals;
  return (
    <div className="db:grid db:grid-cols-2 db:gap-3 db:lg:grid-cols-4">
      <Card title="Net PnL" value={`${net.text} USDT`} valueClassName={net.className}>
        Realized {formatPnl(num(t.realizedPnl)).text}, fees {formatUsdt(num(t.commission))}, funding{' '}
        {formatUsdt(num(t.fundingFee))}
      </Card>
      <Card title="Max drawdown" value={dd ? formatPercent(num(dd.ratio)) : NO_VALUE}>
        {dd ? `${formatUsdt(num(dd.amount))} USDT from the peak` : 'No equity recorded in this range'}
      </Card>
      <Card title="Win rate" value={formatPercent(num(t.winRate), { digits: 1 })}>
        {formatInteger(t.wins)} of {formatInteger(t.closingFills)} closing fills won
      </Card>
      <Card title="Profit factor" value={formatRatio(num(t.profitFactor))}>
        {t.profitFactor === null && t.closingFills > 0
          ? 'No losing fill yet'
          : `Won ${formatUsdt(num(t.grossProfit))}, lost ${formatUsdt(num(t.grossLoss))}`}
      </Card>
      <Card title="Sharpe ratio" value={formatRatio(num(a.ratios.sharpe))}>
        {a.ratios.sharpe === null
          ? 'Needs 2 days or more'
          : `Daily returns over ${a.ratios.days} days, × √365`}
      </Card>
      <Card title="Sortino ratio" value={formatRatio(num(a.ratios.sortino))}>
        {a.ratios.sortino === null ? 'Needs 2 days or more' : 'Counts only losing days as risk'}
      </Card>
      <Card title="Fees paid" value={`${formatUsdt(-(num(t.commission) ?? 0))} USDT`}>
        Trading commission in this range
      </Card>
      <Card
        title="Funding"
        value={`${formatPnl(num(t.fundingFee)).text} USDT`}
        valueClassName={formatPnl(num(t.fundingFee)).className}
      >
        {Number(t.fundingFee) === 0
          ? 'No funding in this range'
          : `${Number(t.fundingFee) < 0 ? 'Paid' : 'Received'} on open positions`}
      </Card>
    </div>
  );
}
