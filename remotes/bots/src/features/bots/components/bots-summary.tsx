import type { BotsSummary as Summary } from '@kestrel/contracts/bots';
import { formatInteger, formatPnl } from '@kestrel/ui';
import { FigureGrid } from './figure-grid';

/** Over all the user's bots: how many run, paper and live, and their PnL (GET /api/v1/dashboard/bots) */
export function BotsSummary({ summary }: { summary: Summary }) {
  const realized = formatPnl(summary.realizedPnl);
  const unrealized = formatPnl(summary.unrealizedPnl);
  const today = formatPnl(summary.todayPnl);
  const errors = summary.byState.error ?? 0;
  return (
    <FigureGrid
      label="All bots"
      className="bt:lg:grid-cols-6"
      figures={[
        {
          key: 'total',
          label: 'Bots',
          value: formatInteger(summary.total),
          hint: errors > 0 ? `${formatInteger(errors)} stopped by an error` : 'kept, stopped ones included',
        },
        { key: 'running', label: 'Running', value: formatInteger(summary.running) },
        {
          key: 'modes',
          label: 'Paper · live',
          value: `${formatInteger(summary.paper)} · ${formatInteger(summary.live)}`,
        },
        {
          key: 'realized',
          label: 'Realized PnL',
          value: realized.text,
          className: realized.className,
          hint: 'USDT',
        },
        {
          key: 'unrealized',
          label: 'Unrealized PnL',
          value: unrealized.text,
          className: unrealized.className,
          hint: 'USDT',
        },
        {
          key: 'today',
          label: 'Today',
          value: today.text,
          className: today.className,
          hint: 'USDT since 00:00 UTC',
        },
      ]}
    />
  );
}
