import type { BotPnlLine, BotsSummary as BotsSummaryData } from '@kestrel/contracts';
import { Link } from '@kestrel/shared-runtime/router';
import {
  Badge,
  buttonVariants,
  EmptyState,
  EnvironmentBadge,
  formatInteger,
  formatPnl,
  Spinner,
} from '@kestrel/ui';
import { PanelFailure } from '@kestrel/ui/panel';
import { paths } from '../../../config/paths';

export type BotsSummaryProps =
  | { state: 'loading' }
  | { state: 'error'; message: string; onRetry: () => void }
  | { state: 'ready'; summary: BotsSummaryData };

const STATE_WORDS: Record<BotPnlLine['state'], string> = {
  running: 'Running',
  starting: 'Starting',
  stopping: 'Stopping',
  paused: 'Paused',
  stopped: 'Stopped',
  error: 'Error',
};

/**
 * Where the bots trade, real money first: a trader reads at once how many of them are on mainnet, whatever the top
 * bar says now (a bot keeps the environment it was created in)
 */
function EnvironmentCounts({ byEnvironment }: { byEnvironment: BotsSummaryData['byEnvironment'] }) {
  const { mainnet, testnet } = byEnvironment;
  if (mainnet === 0) return <span className="db:text-muted-foreground"> · all on testnet</span>;
  return (
    <>
      {' · '}
      <span className="db:font-semibold db:text-destructive">{formatInteger(mainnet)} on LIVE mainnet</span>
      {testnet > 0 && (
        <span className="db:text-muted-foreground"> · {formatInteger(testnet)} on testnet</span>
      )}
    </>
  );
}

function Pnl({ value, label }: { value: number; label: string }) {
  const pnl = formatPnl(value);
  return (
    <span className="db:flex db:flex-col db:items-end">
      <span className="db:text-xs db:text-muted-foreground">{label}</span>
      <span className={`db:font-mono db:tabular-nums ${pnl.className}`}>{pnl.text}</span>
    </span>
  );
}

/**
 * Every bot with its PnL today and since it first started, where it trades, and the total over all of them (USDT).
 * Each bot links to its place on /active-bots; without bots, where to start one
 */
export function BotsSummary(props: BotsSummaryProps) {
  if (props.state === 'loading') return <Spinner label="Loading your bots…" />;
  if (props.state === 'error') {
    return <PanelFailure what="Your bots" message={props.message} onRetry={props.onRetry} />;
  }
  const { summary } = props;
  if (summary.total === 0) {
    return (
      <EmptyState
        title="No bots yet"
        description="Bots you start will show here with their status and profit and loss."
        action={
          <Link to="/bot-hub" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            Browse bots
          </Link>
        }
      />
    );
  }
  const total = summary.realizedPnl + summary.unrealizedPnl;
  return (
    <div className="db:flex db:flex-col db:gap-3">
      <div className="db:flex db:flex-wrap db:items-end db:justify-between db:gap-3">
        <p className="db:text-sm">
          <span className="db:font-mono db:font-semibold db:tabular-nums">
            {formatInteger(summary.running)}
          </span>{' '}
          of {formatInteger(summary.total)} running
          <EnvironmentCounts byEnvironment={summary.byEnvironment} />
        </p>
        <section className="db:flex db:gap-4" aria-label="All bots">
          <Pnl label="Today" value={summary.todayPnl} />
          <Pnl label="All time" value={total} />
        </section>
      </div>
      <ul aria-label="Bots" className="db:flex db:flex-col db:divide-y db:divide-border db:text-sm">
        {summary.bots.map((b) => (
          <li key={b.id} className="db:flex db:items-center db:justify-between db:gap-3 db:py-2">
            <span className="db:flex db:min-w-0 db:flex-col">
              <Link
                to={paths.activeBot(b.id)}
                className="db:truncate db:font-medium db:underline-offset-4 db:hover:underline"
              >
                {b.name}
              </Link>
              <span className="db:flex db:flex-wrap db:items-center db:gap-1.5 db:text-xs db:text-muted-foreground">
                {b.symbol}
                <Badge variant={b.state === 'running' ? 'outline' : 'secondary'}>
                  {STATE_WORDS[b.state]}
                </Badge>
                {b.mode === 'paper' ? 'Paper' : 'Live'}
                <EnvironmentBadge environment={b.environment} />
              </span>
            </span>
            <span className="db:flex db:shrink-0 db:gap-4">
              <Pnl label="Today" value={b.todayPnl} />
              <Pnl label="All time" value={b.realizedPnl + b.unrealizedPnl} />
            </span>
          </li>
        ))}
      </ul>
      <Link to={paths.activeBots} className="db:text-sm db:underline db:underline-offset-4">
        All active bots
      </Link>
    </div>
  );
}
