import type { RiskOverview } from '@kestrel/contracts';
import { cn, formatPercent, formatUsdt } from '@kestrel/ui';
import type { ReactNode } from 'react';
import { panel } from './section';

/** Margin ratio from which the card warns, and from which it is critical (Binance liquidates at 100 %) */
export const MARGIN_RATIO_WARNING = 0.5;
export const MARGIN_RATIO_CRITICAL = 0.8;

const leverage = (n: number) =>
  `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}×`;

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
  const id = `risk-card-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <article aria-labelledby={id} className={panel}>
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
      {children && <div className="db:text-xs db:text-muted-foreground">{children}</div>}
    </article>
  );
}

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
      <Card title="Margin ratio" value={formatPercent(o.marginRatio)} valueClassName={ratioTone}>
        Maintenance {formatUsdt(Number(o.maintenanceMargin))} of {formatUsdt(Number(o.marginBalance))} USDT;
        liquidation at 100%
      </Card>
      <Card title="Gross leverage" value={leverage(o.grossLeverage)}>
        All open notional / margin balance
      </Card>
      <Card title="Net leverage" value={leverage(o.netLeverage)}>
        Longs minus shorts / margin balance
      </Card>
      <Card title="1-day VaR (95%)" value={v.value === null ? '—' : `${formatUsdt(v.value)} USDT`}>
        {v.value === null
          ? o.positions.length === 0
            ? 'No open positions'
            : `Too little price history (${v.observations} days)`
          : `Historical, ${v.observations} daily returns`}
      </Card>
    </div>
  );
}
