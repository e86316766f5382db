import { type Observable, Subject } from 'rxjs';

/**
 * A toast of the second type (spec §9: default or destructive style, one at a time, 5000 ms). The runtime's own
 * services emit these (exchange connections, environment switches); the shell renders them.
 */
export interface ToastMessage {
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
}

/** A message for the notification area (spec §9: up to 3 stacked, 4000 ms, bottom-right, Alt+T) */
export interface Notification {
  type: 'success' | 'error' | 'info' | 'warning';
  title: string;
  description?: string;
}

/** How any remote shows a toast or notification: through the runtime, so every remote looks and behaves alike */
export interface Notices {
  toast(message: ToastMessage): void;
  notify(notification: Notification): void;
  readonly toasts$: Observable<ToastMessage>;
  readonly notifications$: Observable<Notification>;
}

export function createNotices(): Notices {
  const toasts = new Subject<ToastMessage>();
  const notifications = new Subject<Notification>();
  return {
    toast: (message) => toasts.next(message),
    notify: (notification) => notifications.next(notification),
    toasts$: toasts.asObservable(),
    notifications$: notifications.asObservable(),
  };
}
