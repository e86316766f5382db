import { NOTIFICATION_EVENT_LABELS, type NotificationList } from '@kestrel/contracts/account';
import { Link } from '@kestrel/shared-runtime/router';
import { Button, formatDateTime, ToggleGroup } from '@kestrel/ui';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { groupNotifications, NOTIFICATION_FILTERS, type NotificationFilter } from './group-notifications';
import { useMarkNotificationsRead } from './notifications-api';

const FILTERS = Object.keys(NOTIFICATION_FILTERS) as NotificationFilter[];

/** The bell's panel: the newest notices grouped by kind and minute, a filter per kind, and marking read */
export default function NotificationPanel({
  list,
  onNavigate,
}: {
  list: UseQueryResult<NotificationList>;
  /** A link out of the panel was followed */
  onNavigate: () => void;
}) {
  const [filter, setFilter] = useState<NotificationFilter>('all');
  const markRead = useMarkNotificationsRead();
  const data = list.data;
  const groups = data ? groupNotifications(data.items, filter) : [];

  return (
    <section aria-labelledby="notification-panel-title" className="sh:flex sh:max-h-[70dvh] sh:flex-col">
      <div className="sh:flex sh:items-center sh:justify-between sh:gap-2 sh:border-b sh:border-border sh:px-4 sh:py-3">
        <h2 id="notification-panel-title" className="sh:text-sm sh:font-semibold">
          Notifications{data && data.unread > 0 ? ` · ${data.unread} unread` : ''}
        </h2>
        {data && data.unread > 0 && (
          <Button
            size="sm"
            variant="outline"
            disabled={markRead.isPending}
            onClick={() => markRead.mutate(undefined)}
          >
            Mark all read
          </Button>
        )}
      </div>
      <div className="sh:border-b sh:border-border sh:px-4 sh:py-2">
        <ToggleGroup
          label="Show"
          options={FILTERS.map((f) => ({ value: f, label: NOTIFICATION_FILTERS[f].label }))}
          value={filter}
          onChange={setFilter}
        />
      </div>
      {markRead.isError && (
        <p role="alert" className="sh:px-4 sh:pt-2 sh:text-sm sh:text-destructive">
          Not marked read:{' '}
          {markRead.error instanceof Error ? markRead.error.message : 'the server did not answer'}
        </p>
      )}
      <div className="sh:min-h-0 sh:flex-1 sh:overflow-y-auto">
        {list.isPending ? (
          <p className="sh:p-4 sh:text-sm sh:text-muted-foreground">Loading notifications…</p>
        ) : list.isError ? (
          <div className="sh:flex sh:flex-col sh:items-start sh:gap-2 sh:p-4 sh:text-sm">
            <p className="sh:text-destructive">Notifications could not be loaded.</p>
            <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
              Retry
            </Button>
          </div>
        ) : groups.length === 0 ? (
          <p className="sh:p-4 sh:text-sm sh:text-muted-foreground">
            {filter === 'all'
              ? 'Nothing yet. Fills, bot starts and stops, risk stops, the kill switch and key problems appear here.'
              : `No ${NOTIFICATION_FILTERS[filter].label.toLowerCase()} notifications.`}
          </p>
        ) : (
          <ul
            aria-label="Newest notifications"
            className="sh:m-0 sh:list-none sh:divide-y sh:divide-border sh:p-0"
          >
            {groups.map((g) => (
              <li key={g.key} className="sh:flex sh:gap-3 sh:px-4 sh:py-3">
                <span
                  aria-hidden="true"
                  className={`sh:mt-1.5 sh:size-2 sh:shrink-0 sh:rounded-full ${g.unreadIds.length > 0 ? 'sh:bg-primary' : 'sh:bg-transparent'}`}
                />
                <div className="sh:flex sh:min-w-0 sh:flex-1 sh:flex-col sh:gap-0.5">
                  <p className="sh:text-sm sh:font-medium sh:break-words">
                    {g.unreadIds.length > 0 && <span className="sh:sr-only">Unread: </span>}
                    {g.ids.length > 1 ? `${g.ids.length} × ${g.title}` : g.title}
                  </p>
                  <p className="sh:text-sm sh:text-muted-foreground sh:break-words">{g.message}</p>
                  <p className="sh:text-xs sh:text-muted-foreground">
                    {NOTIFICATION_EVENT_LABELS[g.event]} · {formatDateTime(g.createdAt)} UTC
                  </p>
                </div>
                {g.unreadIds.length > 0 && (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="sh:shrink-0 sh:self-start"
                    disabled={markRead.isPending}
                    aria-label={`Mark read: ${g.title}`}
                    onClick={() => markRead.mutate(g.unreadIds)}
                  >
                    Read
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="sh:border-t sh:border-border sh:px-4 sh:py-2 sh:text-sm">
        <Link
          to="/account"
          onClick={onNavigate}
          className="sh:text-primary sh:underline-offset-4 sh:hover:underline"
        >
          All notifications and webhooks
        </Link>
      </div>
    </section>
  );
}
