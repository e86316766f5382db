import { describe, expect, it } from 'vitest';
import { createNotices, type Notification, type ToastMessage } from './toast';

describe('notices: how every remote toasts', () => {
  it('passes toasts and notifications to whoever renders them, in order', () => {
    const notices = createNotices();
    const toasts: ToastMessage[] = [];
    const notifications: Notification[] = [];
    notices.toasts$.subscribe((t) => toasts.push(t));
    notices.notifications$.subscribe((n) => notifications.push(n));
    notices.toast({ title: 'Exchange Disconnected', variant: 'default' });
    notices.notify({ type: 'success', title: 'Order filled', description: '0.010 BTC at 64,210.5' });
    notices.toast({ title: 'Connection Error', variant: 'destructive' });
    expect(toasts.map((t) => t.title)).toEqual(['Exchange Disconnected', 'Connection Error']);
    expect(notifications).toEqual([
      { type: 'success', title: 'Order filled', description: '0.010 BTC at 64,210.5' },
    ]);
  });
});
