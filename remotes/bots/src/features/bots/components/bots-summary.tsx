import type { BotsSummary as Summary } from '@kestrel/contracts/bots';
import { formatInteger } from '@kestrel/ui';
import { FigureGrid } from '@kestrel/ui/figures';
import { pnlFigures } from '../lib/pnl-figures';

/** Over all the user's bots: how many run, paper and live, and their PnL (GET /api/v1/dashboard/bots) */
export function BotsSummary({ summary }: { summary: Summary }) {
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
        ...pnlFigures(summary),
      ]}
    />
  );
}
