import type { Analytics } from '@kestrel/contracts';
import { formatInteger, formatPercent, formatPnl, formatRatio, formatUsdt, NO_VALUE } from '@kestrel/ui';
import { FigureCard } from '../../../components/figure-card';

const num = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));

/** Net result, drawdown, win rate, profit factor, Sharpe and Sortino, fees and funding of the range */
export function MetricCards({ analytics: a }: { analytics: Analytics }) {
  const net = formatPnl(num(a.totals.net));
  const dd = a.maxDrawdown;
  const t = a.totals;
  return (
    <div className="db:grid db:grid-cols-2 db:gap-3 db:lg:grid-cols-4">
      <FigureCard title="Net PnL" value={`${net.text} USDT`} valueClassName={net.className}>
        Realized {formatPnl(num(t.realizedPnl)).text}, fees {formatUsdt(num(t.commission))}, funding{' '}
        {formatUsdt(num(t.fundingFee))}
      </FigureCard>
      <FigureCard title="Max drawdown" value={dd ? formatPercent(num(dd.ratio)) : NO_VALUE}>
        {dd ? `${formatUsdt(num(dd.amount))} USDT from the peak` : 'No equity recorded in this range'}
      </FigureCard>
      <FigureCard title="Win rate" value={formatPercent(num(t.winRate), { digits: 1 })}>
        {formatInteger(t.wins)} of {formatInteger(t.closingFills)} closing fills won
      </FigureCard>
      <FigureCard title="Profit factor" value={formatRatio(num(t.profitFactor))}>
        {t.profitFactor === null && t.closingFills > 0
          ? 'No losing fill yet'
          : `Won ${formatUsdt(num(t.grossProfit))}, lost ${formatUsdt(num(t.grossLoss))}`}
      </FigureCard>
      <FigureCard title="Sharpe ratio" value={formatRatio(num(a.ratios.sharpe))}>
        {a.ratios.sharpe === null
          ? 'Needs 2 days or more'
          : `Daily returns over ${a.ratios.days} days, × √365`}
      </FigureCard>
      <FigureCard title="Sortino ratio" value={formatRatio(num(a.ratios.sortino))}>
        {a.ratios.sortino === null ? 'Needs 2 days or more' : 'Counts only losing days as risk'}
      </FigureCard>
      <FigureCard title="Fees paid" value={`${formatUsdt(-(num(t.commission) ?? 0))} USDT`}>
        Trading commission in this range
      </FigureCard>
      <FigureCard
        title="Funding"
        value={`${formatPnl(num(t.fundingFee)).text} USDT`}
        valueClassName={formatPnl(num(t.fundingFee)).className}
      >
        {Number(t.fundingFee) === 0
          ? 'No funding in this range'
          : `${Number(t.fundingFee) < 0 ? 'Paid' : 'Received'} on open positions`}
      </FigureCard>
    </div>
  );
}
