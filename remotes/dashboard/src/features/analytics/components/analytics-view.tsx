import type { Analytics } from '@kestrel/contracts';
import { cn, EmptyState, formatDateTime, Spinner } from '@kestrel/ui';
import { PanelFailure } from '@kestrel/ui/panel';
import { lazy, type ReactNode, Suspense } from 'react';
import { BotTable } from './bot-table';
import { MetricCards } from './metric-cards';
import { PnlCalendar } from './pnl-calendar';
import { SymbolTable } from './symbol-table';

const EquityChart = lazy(() => import('./equity-chart'));

const frame =
  'db:flex db:min-w-0 db:flex-col db:rounded-xl db:border db:border-border db:bg-card db:p-4 db:text-card-foreground';

export type AnalyticsViewProps =
  | { state: 'loading' }
  | { state: 'no-exchange'; connectAction: ReactNode }
  | { state: 'error'; message: string; onRetry: () => void }
  | {
      state: 'ready';
      analytics: Analytics;
      connected: boolean;
      connectAction: ReactNode;
      updating?: boolean;
      /** Where the calendar starts when the chosen range starts before the first record (a preset's whole span) */
      calendarFrom?: number;
    };

/** Whether the range holds anything to show */
export function hasHistory(a: Analytics): boolean {
  return a.equity.length > 0 || a.daily.length > 0 || a.symbols.length > 0 || a.bots.length > 0;
}

/** The page body by state: loading, no exchange, error, empty range, or the figures */
export function AnalyticsView(props: AnalyticsViewProps) {
  if (props.state === 'loading') {
    return (
      <div className={cn(frame, 'db:items-start db:py-6')}>
        <Spinner label="Loading your results…" />
      </div>
    );
  }
  if (props.state === 'no-exchange') {
    return (
      <EmptyState
        title="No exchange connected"
        description="Connect your Binance account: Kestrel then records your equity every minute and imports your income history, and your results, drawdown and daily PnL appear here."
        action={props.connectAction}
      />
    );
  }
  if (props.state === 'error') {
    return (
      <PanelFailure what="Your results" message={props.message} onRetry={props.onRetry} className={frame} />
    );
  }
  const a = props.analytics;
  if (!hasHistory(a)) {
    return (
      <EmptyState
        title="No trading history in this range yet"
        description={
          props.connected
            ? 'Kestrel records your account from the moment your keys are connected: equity every minute, income (realized PnL, fees, funding) every few minutes, up to 90 days back. Pick a longer range, or come back after your first trades.'
            : 'Kestrel records your account while an exchange is connected: connect one to start recording.'
        }
        action={props.connected ? undefined : props.connectAction}
      />
    );
  }
  return (
    <div
      className={cn('db:flex db:min-w-0 db:flex-col db:gap-4', props.updating && 'db:opacity-70')}
      aria-busy={props.updating}
    >
      {!props.connected && (
        <div
          className={cn(
            frame,
            'db:flex-row db:flex-wrap db:items-center db:justify-between db:gap-2 db:text-sm',
          )}
        >
          <p>
            No exchange is connected: these figures are what was recorded before, and recording is paused.
          </p>
          {props.connectAction}
        </div>
      )}
      <section aria-label="Results" className="db:min-w-0">
        <MetricCards analytics={a} />
      </section>
      {a.equity.length > 0 ? (
        <Suspense
          fallback={
            <div className={cn(frame, 'db:h-[340px] db:items-start')}>
              <Spinner label="Loading the chart…" />
            </div>
          }
        >
          <EquityChart points={a.equity} maxDrawdownRatio={a.maxDrawdown?.ratio ?? null} />
        </Suspense>
      ) : (
        <p className={cn(frame, 'db:text-sm db:text-muted-foreground')}>
          No equity was recorded in this range.
        </p>
      )}
      <div className="db:grid db:min-w-0 db:grid-cols-1 db:gap-4 db:2xl:grid-cols-2">
        <PnlCalendar days={a.daily} from={Math.min(a.from, props.calendarFrom ?? a.from)} to={a.to} />
        <SymbolTable symbols={a.symbols} />
      </div>
      <BotTable bots={a.bots} />
      <p className="db:text-xs db:text-muted-foreground">
        From recorded history, UTC days.{' '}
        {a.syncedTo === null
          ? 'The first import of your income history is still running.'
          : `Income imported up to ${formatDateTime(a.syncedTo)} UTC.`}
      </p>
    </div>
  );
}
