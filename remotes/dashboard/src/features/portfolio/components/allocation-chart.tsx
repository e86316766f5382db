import type { DashboardPortfolio } from '@kestrel/contracts';
import { formatPercent, formatUsdt } from '@kestrel/ui';
import { type ChartConfig, ChartContainer } from '@kestrel/ui/chart';
import type { AllocationSlice } from '../lib/position-figures';

/** Position slices in shades of the primary colour, open orders in amber, free margin in the muted tone */
function colorOf(slice: AllocationSlice, index: number): string {
  if (slice.key === 'available') return 'var(--muted-foreground)';
  if (slice.key === 'orders') return 'var(--warning)';
  const weight = Math.max(35, 100 - index * 15);
  return `color-mix(in oklch, var(--primary) ${weight}%, var(--background))`;
}

/** Where the margin balance sits: one stacked bar, and the same figures as a list (readable without the colours) */
export function AllocationChart({
  slices,
  allocation,
}: {
  slices: readonly AllocationSlice[];
  /** Gross and net exposure of the open positions */
  allocation: DashboardPortfolio['allocation'];
}) {
  const config: ChartConfig = Object.fromEntries(
    slices.map((s, i) => [s.key.replace(/[^A-Za-z0-9_-]/g, '_'), { label: s.label, color: colorOf(s, i) }]),
  );
  const keyOf = (s: AllocationSlice) => s.key.replace(/[^A-Za-z0-9_-]/g, '_');
  const description = slices.map((s) => `${s.label} ${formatPercent(s.share, { digits: 1 })}`).join(', ');
  return (
    <ChartContainer
      config={config}
      title="Margin allocation"
      description={`Share of the margin balance: ${description}`}
    >
      <div
        aria-hidden="true"
        className="db:flex db:h-4 db:w-full db:overflow-hidden db:rounded-full db:bg-muted"
      >
        {slices.map((s) => (
          <div
            key={s.key}
            className="db:h-full"
            style={{ width: `${s.share * 100}%`, background: `var(--color-${keyOf(s)})` }}
          />
        ))}
      </div>
      <ul className="db:flex db:flex-col db:gap-1.5 db:text-sm">
        {slices.map((s) => (
          <li key={s.key} className="db:flex db:items-center db:gap-2">
            <span
              aria-hidden="true"
              className="db:size-3 db:shrink-0 db:rounded-sm"
              style={{ background: `var(--color-${keyOf(s)})` }}
            />
            <span className="db:min-w-0 db:flex-1 db:truncate">{s.label}</span>
            <span className="db:font-mono db:tabular-nums db:text-muted-foreground">
              {formatUsdt(s.value)}
            </span>
            <span className="db:w-16 db:text-right db:font-mono db:tabular-nums">
              {formatPercent(s.share, { digits: 1 })}
            </span>
          </li>
        ))}
      </ul>
      <dl className="db:grid db:grid-cols-2 db:gap-2 db:border-t db:border-border db:pt-3 db:text-sm">
        <div>
          <dt className="db:text-muted-foreground">Gross exposure</dt>
          <dd className="db:font-mono db:tabular-nums">{formatUsdt(Number(allocation.grossExposure))}</dd>
        </div>
        <div>
          <dt className="db:text-muted-foreground">Net exposure</dt>
          <dd className="db:font-mono db:tabular-nums">
            {formatUsdt(Number(allocation.netExposure), { signed: true })}
          </dd>
        </div>
      </dl>
    </ChartContainer>
  );
}
