import { Link } from '@kestrel/shared-runtime/router';
import { buttonVariants, EmptyState, formatInteger } from '@kestrel/ui';

/** Running bots at a glance; until there are any, says so and where to start one */
export function BotsSummary({ activeBots }: { activeBots: number }) {
  if (activeBots === 0) {
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
  return (
    <p className="db:text-sm">
      <span className="db:font-mono db:font-semibold db:tabular-nums">{formatInteger(activeBots)}</span>{' '}
      {activeBots === 1 ? 'bot running' : 'bots running'} ·{' '}
      <Link to="/active-bots" className="db:underline db:underline-offset-4">
        Active bots
      </Link>
    </p>
  );
}
