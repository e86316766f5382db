import type { Notification, NotificationEvent } from '@kestrel/contracts/account';

/** The bell's filters: which kinds of notice each shows */
export const NOTIFICATION_FILTERS = {
  all: { label: 'All', events: null },
  trading: { label: 'Trading', events: ['order_filled', 'protection_failed'] },
  bots: { label: 'Bots', events: ['bot_started', 'bot_stopped', 'agent_approval_waiting'] },
  risk: { label: 'Risk', events: ['bot_stopped_by_risk', 'kill_switch'] },
  account: {
    label: 'Account',
    events: ['exchange_key_refused', 'new_device_signin', 'signin_failures', 'test'],
  },
} as const satisfies Record<string, { label: string; events: readonly NotificationEvent[] | null }>;
export type NotificationFilter = keyof typeof NOTIFICATION_FILTERS;

/** Notices of one kind and title within one minute: one line ("3 × Bot “Grid”: order filled") */
export interface NotificationGroup {
  /** The newest notice's id */
  key: string;
  event: NotificationEvent;
  title: string;
  /** The newest notice's message */
  message: string;
  /** The newest notice's time */
  createdAt: number;
  ids: string[];
  unreadIds: string[];
}

const MINUTE_MS = 60_000;

/**
 * The list, newest first, as the bell shows it: a burst of one kind (a grid's fills, one per order) becomes one
 * line per minute, so ten fills do not push a kill switch out of view. Grouped with the group's newest notice while
 * within a minute of it
 */
export function groupNotifications(
  items: readonly Notification[],
  filter: NotificationFilter = 'all',
): NotificationGroup[] {
  const events: readonly NotificationEvent[] | null = NOTIFICATION_FILTERS[filter].events;
  const groups: NotificationGroup[] = [];
  for (const n of items) {
    if (events && !events.includes(n.event)) continue;
    const last = groups[groups.length - 1];
    if (
      last &&
      last.event === n.event &&
      last.title === n.title &&
      last.createdAt - n.createdAt < MINUTE_MS
    ) {
      last.ids.push(n.id);
      if (!n.read) last.unreadIds.push(n.id);
      continue;
    }
    groups.push({
      key: n.id,
      event: n.event,
      title: n.title,
      message: n.message,
      createdAt: n.createdAt,
      ids: [n.id],
      unreadIds: n.read ? [] : [n.id],
    });
  }
  return groups;
}
