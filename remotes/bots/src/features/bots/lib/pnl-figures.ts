import { formatPnl } from '@kestrel/ui';
import type { Figure } from '@kestrel/ui/figures';

/** A bot's (or all bots') realized, unrealized and today's PnL as figures: the bot card and the summary read alike */
export function pnlFigures(pnl: { realizedPnl: number; unrealizedPnl: number; todayPnl: number }): Figure[] {
  const realized = formatPnl(pnl.realizedPnl);
  const unrealized = formatPnl(pnl.unrealizedPnl);
  const today = formatPnl(pnl.todayPnl);
  return [
    {
      key: 'realized',
      label: 'Realized PnL',
      value: realized.text,
      valueClassName: realized.className,
      hint: 'USDT',
    },
    {
      key: 'unrealized',
      label: 'Unrealized PnL',
      value: unrealized.text,
      valueClassName: unrealized.className,
      hint: 'USDT',
    },
    {
      key: 'today',
      label: 'Today',
      value: today.text,
      valueClassName: today.className,
      hint: 'USDT since 00:00 UTC',
    },
  ];
}
