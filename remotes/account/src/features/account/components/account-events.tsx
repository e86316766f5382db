import type { AccountEvent } from '@kestrel/contracts/account';
import { EmptyState, formatDateTime } from '@kestrel/ui';
import { describeDevice } from '../lib/device';

/** The account's audit, newest first: what changed, when, from where */
export function AccountEvents({ events }: { events: readonly AccountEvent[] }) {
  if (events.length === 0) {
    return (
      <EmptyState
        title="No account activity yet"
        description="Sign-ins and changes to your account appear here."
      />
    );
  }
  return (
    <ol aria-label="Account activity" className="ac:flex ac:flex-col ac:divide-y ac:divide-border ac:text-sm">
      {events.map((e) => (
        <li
          key={e.id}
          className="ac:flex ac:flex-col ac:gap-0.5 ac:py-2 ac:sm:flex-row ac:sm:justify-between"
        >
          <span>{e.message}</span>
          <span className="ac:text-xs ac:text-muted-foreground">
            {formatDateTime(e.createdAt)} UTC
            {e.ip ? ` · ${e.ip}` : ''}
            {e.userAgent ? ` · ${describeDevice(e.userAgent)}` : ''}
          </span>
        </li>
      ))}
    </ol>
  );
}
