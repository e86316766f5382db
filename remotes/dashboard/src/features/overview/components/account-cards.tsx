import type { DashboardOverview } from '@kestrel/contracts';
import { cn, EmptyState, formatInteger, formatPercent, formatPnl, formatUsdt, Spinner } from '@kestrel/ui';
import { PanelFailure } from '@kestrel/ui/panel';
import type { ReactNode } from 'react';
import { FigureCard } from '../../../components/figure-card';
import { PAINT_MARKS, usePaintMark } from '../../../lib/paint-marks';

/** Margin ratio from which the card warns (Binance liquidates at 100%) */
export const MARGIN_RATIO_WARNING = 0.5;

export type AccountCardsProps =
  | { state: 'no-exchange'; connectAction: ReactNode }
  | { state: 'loading' }
  | { state: 'error'; message: string; onRetry: () => void }
  | { state: 'ready'; overview: DashboardOverview };

/** The frame of the loading and error states, the size of a figure card */
const frame =
  'db:flex db:min-w-0 db:flex-col db:gap-1 db:rounded-xl db:border db:border-border db:bg-card db:p-3 db:text-card-foreground db:sm:p-4';

/** A label and a figure on one line under a card's main figure */
function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <span className="db:mr-3 db:inline-block">
      {label} <span className="db:font-mono db:tabular-nums db:text-foreground">{children}</span>
    </span>
  );
}

/** The account at a glance: balance, unrealized and today's PnL, available margin with the margin ratio */
export function AccountCards(props: AccountCardsProps) {
  usePaintMark(PAINT_MARKS.figures, props.state === 'ready');
  if (props.state === 'no-exchange') {
    return (
      <EmptyState
        title="No exchange connected"
        description="Connect your Binance account to see your balance, margin and profit and loss here."
        action={props.connectAction}
      />
    );
  }
  if (props.state === 'loading') {
    return (
      <div className={cn(frame, 'db:items-start db:py-6')}>
        <Spinner label="Loading your account…" />
      </div>
    );
  }
  if (props.state === 'error') {
    return (
      <PanelFailure
        what="Your account"
        message={props.message}
        onRetry={props.onRetry}
        className={cn(frame, 'db:gap-2')}
      />
    );
  }
  const o = props.overview;
  const unrealized = formatPnl(Number(o.unrealizedPnl));
  const today = formatPnl(Number(o.today.net));
  const ratio = Number(o.marginRatio);
  return (
    <div className="db:grid db:grid-cols-2 db:gap-3 db:xl:grid-cols-4">
      <FigureCard title="Wallet balance" value={formatUsdt(Number(o.walletBalance))} unit="USDT">
        <Detail label="Margin balance">{formatUsdt(Number(o.marginBalance))}</Detail>
      </FigureCard>
      <FigureCard
        title="Unrealized PnL"
        value={unrealized.text}
        valueClassName={unrealized.className}
        unit="USDT"
      >
        <Detail label="Positions">{formatInteger(o.openPositions)}</Detail>
        <Detail label="Open orders">{formatInteger(o.openOrders)}</Detail>
      </FigureCard>
      <FigureCard title="Today's PnL" value={today.text} valueClassName={today.className} unit="USDT">
        <Detail label="Realized">{formatPnl(Number(o.today.realizedPnl)).text}</Detail>
        <Detail label="Fees">{formatUsdt(Number(o.today.commission))}</Detail>
        <Detail label="Funding">{formatUsdt(Number(o.today.fundingFee))}</Detail>
      </FigureCard>
      <FigureCard title="Available margin" value={formatUsdt(Number(o.availableMargin))} unit="USDT">
        <Detail label="Margin ratio">
          <span className={ratio >= MARGIN_RATIO_WARNING ? 'db:text-destructive' : undefined}>
            {formatPercent(ratio)}
          </span>
        </Detail>
      </FigureCard>
    </div>
  );
}
