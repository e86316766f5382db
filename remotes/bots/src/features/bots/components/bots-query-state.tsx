import type { Bot } from '@kestrel/contracts/bots';
import { EmptyState } from '@kestrel/ui';
import { type QueryLike, QueryState } from '@kestrel/ui/panel';
import type { ReactNode } from 'react';

/**
 * The user's bots as a page reads them: loading, the failure with Retry (before stale data: a bot's state must not
 * look current when it is not), or "No bots yet" with the page's own next step
 */
export function BotsQueryState({
  bots,
  emptyDescription,
  emptyAction,
  children,
}: {
  bots: QueryLike<Bot[]>;
  emptyDescription: string;
  emptyAction: ReactNode;
  children: (list: Bot[]) => ReactNode;
}) {
  return (
    <QueryState
      query={bots}
      what="Your bots"
      loading="Loading your bots…"
      layout="inline"
      errorFirst
      isEmpty={(list) => list.length === 0}
      empty={<EmptyState title="No bots yet" description={emptyDescription} action={emptyAction} />}
    >
      {children}
    </QueryState>
  );
}
