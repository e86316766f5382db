import type { RiskOverview } from '@kestrel/contracts';
import { formatPercent, formatUsdt } from '@kestrel/ui';
import { FigureCard } from '../../../components/figure-card';

/** Margin ratio from which the card warns, and from which it is critical (Binance liquidates at 100 %) */
export const MARGIN_RATIO_WARNING = 0.5;
export const MARGIN_RATIO_CRITICAL = 0.8;

const leverage = (n: number) =>
  `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}×`;

/** The account's risk at a glance: margin ratio, gross and net leverage, 1-day VaR */
export function RiskCards({ overview: o }: { overview: RiskOverview }) {
  const ratioTone =
    o.marginRatio >= MARGIN_RATIO_CRITICAL
      ? 'db:text-destructive'
      : o.marginRatio >= MARGIN_RATIO_WARNING
        ? 'db:text-warning'
        : undefined;
  const v = o.valueAtRisk;
  return (
    <div className="db:grid db:grid-cols-2 db:gap-3 db:xl:grid-cols-4">
      <FigureCard title="Margin ratio" value={formatPercent(o.marginRatio)} valueClassName={ratioTone}>
        Maintenance {formatUsdt(Number(o.maintenanceMargin))} of {formatUsdt(Number(o.marginBalance))} USDT;
        liquidation at 100%
      </FigureCard>
      <FigureCard title="Gross leverage" value={leverage(o.grossLeverage)}>
        All open notional / margin balance
      </FigureCard>
      <FigureCard title="Net leverage" value={leverage(o.netLeverage)}>
        Longs minus shorts / margin balance
      </FigureCard>
      <FigureCard title="1-day VaR (95%)" value={v.value === null ? '—' : `${formatUsdt(v.value)} USDT`}>
        {v.value === null
          ? o.positions.length === 0
            ? 'No open positions'
            : `Too little price history (${v.observations} days)`
          : `Historical, ${v.observations} daily returns`}
      </FigureCard>
    </div>
  );
}
