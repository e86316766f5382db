import type { RiskEvent } from '@kestrel/contracts';
import { Badge, formatDateTime } from '@kestrel/ui';

const KIND: Record<RiskEvent['kind'], { label: string; variant: 'destructive' | 'secondary' | 'warning' }> = {
  refusal: { label: 'Refused', variant: 'warning' },
  limits: { label: 'Limits', variant: 'secondary' },
  kill_switch: { label: 'Kill switch', variant: 'destructive' },
};

/** The risk audit, newest first: refused orders, limit changes, kill switches */
export function RiskEvents({ events }: { events: readonly RiskEvent[] }) {
  if (events.length === 0) return <p className="db:text-sm db:text-muted-foreground">No risk events yet</p>;
  return (
    <ol className="db:flex db:flex-col db:divide-y db:divide-border" aria-label="Risk events">
      {events.map((e) => (
        <li
          key={e.id}
          className="db:flex db:flex-col db:gap-1 db:py-2 db:sm:flex-row db:sm:items-baseline db:sm:gap-3"
        >
          <span className="db:flex db:shrink-0 db:items-center db:gap-2">
            <time
              className="db:font-mono db:text-xs db:tabular-nums db:text-muted-foreground"
              dateTime={new Date(e.createdAt).toISOString()}
            >
              {formatDateTime(e.createdAt)}
            </time>
            <Badge variant={KIND[e.kind].variant}>{KIND[e.kind].label}</Badge>
          </span>
          <span className="db:min-w-0 db:break-words db:text-sm">{e.message}</span>
        </li>
      ))}
    </ol>
  );
}
