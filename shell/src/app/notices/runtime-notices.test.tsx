import type { Notification, ToastMessage } from '@kestrel/shared-runtime';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { LazyNotices } from './runtime-notices';

describe('notice areas load with the first message', () => {
  afterEach(cleanup);

  it('renders nothing before a message, then shows the ones sent while the areas loaded', async () => {
    const notifications = new Subject<Notification>();
    const toasts = new Subject<ToastMessage>();
    render(<LazyNotices theme="light" notifications$={notifications} toasts$={toasts} />);
    expect(document.querySelector('[data-sonner-toaster]')).toBeNull();
    expect(screen.queryByRole('region', { name: 'Notifications (F8)' })).toBeNull();

    await act(async () => {
      notifications.next({ type: 'success', title: 'Order filled' });
      toasts.next({ title: 'Exchange Connected', variant: 'default' });
    });
    expect(await screen.findByText('Order filled')).toBeTruthy();
    expect(await screen.findByText('Exchange Connected')).toBeTruthy();

    await act(async () => notifications.next({ type: 'info', title: 'Bot started' }));
    expect(await screen.findByText('Bot started')).toBeTruthy();
  });
});
