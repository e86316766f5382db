import { type NotificationList as List, NOTIFICATION_EVENT_LABELS } from '@kestrel/contracts/account';
import { Badge, Button, formatDateTime } from '@kestrel/ui';
import { useState } from 'react';
import { FailureLine } from '../../../components/form-parts';
import { failureText } from '../../../lib/failure-text';

/** The in-app notifications, newest first; unread ones marked, all marked read in one press */
export function NotificationList({ list, onReadAll }: { list: List; onReadAll: () => Promise<unknown> }) {
  const [error, setError] = useState<string | null>(null);
  if (list.items.length === 0)
    return (
      <p className="ac:text-sm ac:text-muted-foreground">
        Nothing yet. Fills, bot starts and stops, the kill switch, a refused exchange key and sign-ins from a
        new device appear here.
      </p>
    );
  return (
    <div className="ac:flex ac:flex-col ac:gap-3">
      <div className="ac:flex ac:flex-wrap ac:items-center ac:gap-3">
        <span className="ac:text-sm">{list.unread === 0 ? 'All read' : `${list.unread} unread`}</span>
        {list.unread > 0 && (
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              setError(null);
              onReadAll().catch((err: unknown) => setError(failureText(err, 'Not marked read')));
            }}
          >
            Mark all read
          </Button>
        )}
      </div>
      <FailureLine message={error} />
      <ul aria-label="Notifications" className="ac:flex ac:flex-col ac:divide-y ac:divide-border">
        {list.items.map((n) => (
          <li key={n.id} className="ac:flex ac:flex-col ac:gap-0.5 ac:py-2">
            <div className="ac:flex ac:flex-wrap ac:items-center ac:gap-2">
              {!n.read && <Badge variant="default">New</Badge>}
              <span className="ac:text-sm ac:font-medium">{n.title}</span>
              <span className="ac:text-xs ac:text-muted-foreground">
                {NOTIFICATION_EVENT_LABELS[n.event]} · {formatDateTime(n.createdAt)} UTC
              </span>
            </div>
            <p className="ac:break-words ac:text-sm ac:text-muted-foreground">{n.message}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
