import type { BotEvent } from '@kestrel/contracts/bots';
import { cn, formatDateTime } from '@kestrel/ui';

const TONE: Partial<Record<BotEvent['kind'], string>> = {
  error: 'bt:text-destructive',
  risk_stop: 'bt:text-destructive',
  order_refused: 'bt:text-destructive',
  order_unknown: 'bt:text-warning',
  order_filled: 'bt:text-success',
};

/** Lines of a bot's log, newest first: UTC time, then what happened in the server's words */
export function BotLogLines({ events, label }: { events: readonly BotEvent[]; label: string }) {
  return (
    <ol aria-label={label} className="bt:flex bt:flex-col bt:gap-1 bt:text-sm">
      {events.map((event) => (
        <li
          key={event.id}
          data-kind={event.kind}
          className="bt:flex bt:min-w-0 bt:flex-col bt:sm:flex-row bt:sm:gap-x-2"
        >
          <time
            dateTime={new Date(event.time).toISOString()}
            className="bt:shrink-0 bt:font-mono bt:text-xs bt:leading-5 bt:text-muted-foreground bt:tabular-nums"
          >
            {formatDateTime(event.time)}
          </time>
          <span className={cn('bt:min-w-0 bt:break-words', TONE[event.kind])}>{event.message}</span>
        </li>
      ))}
    </ol>
  );
}
