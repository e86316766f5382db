import type { Notification, ToastMessage } from '@kestrel/shared-runtime';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotificationArea, SingleToast } from './notices';

const advance = async (ms: number) => {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
};

describe('notification area (spec §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('stacks at most 3 visible, bottom-right, 356 px wide, 14 px gap, 32 px from the edge, Alt+T, in the theme', async () => {
    const notifications = new Subject<Notification>();
    render(<NotificationArea theme="dark" notifications$={notifications} />);
    await act(async () => {
      for (const n of [1, 2, 3, 4]) notifications.next({ type: 'info', title: `Fill ${n}` });
    });
    await advance(10);
    expect(screen.getByRole('region', { name: 'Notifications alt+T' })).toBeTruthy();
    const list = document.querySelector<HTMLElement>('[data-sonner-toaster]');
    expect(list?.dataset.theme).toBe('dark');
    expect(list?.dataset.yPosition).toBe('bottom');
    expect(list?.dataset.xPosition).toBe('right');
    expect(list?.style.getPropertyValue('--width')).toBe('356px');
    expect(list?.style.getPropertyValue('--gap')).toBe('14px');
    expect(list?.style.getPropertyValue('--offset-bottom')).toBe('32px');
    expect(list?.style.getPropertyValue('--offset-right')).toBe('32px');
    const toasts = [...document.querySelectorAll<HTMLElement>('[data-sonner-toast]')];
    expect(toasts).toHaveLength(4);
    expect(toasts.filter((t) => t.dataset.visible === 'true')).toHaveLength(3);
  });

  it('removes a notification after 4000 ms, with a 200 ms removal animation', async () => {
    const notifications = new Subject<Notification>();
    render(<NotificationArea theme="light" notifications$={notifications} />);
    await act(async () => notifications.next({ type: 'success', title: 'Order filled' }));
    const toast = () => document.querySelector<HTMLElement>('[data-sonner-toast]');
    await advance(3_999);
    expect(toast()?.dataset.removed).toBe('false');
    await advance(1);
    expect(toast()?.dataset.removed).toBe('true');
    await advance(199);
    expect(toast()).not.toBeNull();
    await advance(1);
    expect(toast()).toBeNull();
  });
});

/** Drags `el` right by `dx` pixels over one second (slow enough that only the distance can dismiss it) */
async function swipeRight(el: HTMLElement, dx: number) {
  // One act() per event: the toast learns the swipe direction from the first move, in a state update
  await act(async () => {
    fireEvent.pointerDown(el, { pointerId: 1, clientX: 100, clientY: 100, button: 0, pointerType: 'mouse' });
  });
  await act(async () => {
    fireEvent.pointerMove(el, { pointerId: 1, clientX: 102, clientY: 100, pointerType: 'mouse' });
  });
  await act(async () => {
    fireEvent.pointerMove(el, { pointerId: 1, clientX: 100 + dx, clientY: 100, pointerType: 'mouse' });
    vi.advanceTimersByTime(1_000);
  });
  await act(async () => {
    fireEvent.pointerUp(el, { pointerId: 1, clientX: 100 + dx, clientY: 100, pointerType: 'mouse' });
  });
}

describe('notification swipe (spec §9: dismissed at 20 px)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('keeps a notification swiped 19 px and dismisses one swiped 20 px', async () => {
    const notifications = new Subject<Notification>();
    render(<NotificationArea theme="light" notifications$={notifications} />);
    await act(async () => notifications.next({ type: 'info', title: 'Swipe me' }));
    await advance(10);
    const toast = () => document.querySelector<HTMLElement>('[data-sonner-toast]');
    await swipeRight(toast() as HTMLElement, 19);
    expect(toast()?.dataset.removed).toBe('false');
    await swipeRight(toast() as HTMLElement, 20);
    expect(toast()?.dataset.removed).toBe('true');
  });
});

describe('second toast type (spec §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('shows one at a time, in the destructive style when asked, for 5000 ms, under F8', async () => {
    const toasts = new Subject<ToastMessage>();
    render(<SingleToast toasts$={toasts} />);
    expect(screen.getByRole('region', { name: 'Notifications (F8)' })).toBeTruthy();
    await act(async () => {
      toasts.next({ title: 'Testnet', description: 'Simulation with fake funds', variant: 'default' });
      toasts.next({ title: 'Mainnet', description: 'LIVE trading with real money', variant: 'destructive' });
    });
    expect(screen.queryByText('Testnet')).toBeNull();
    const shown = screen.getByText('Mainnet').closest('[data-slot="toast"]') as HTMLElement;
    expect(shown.dataset.variant).toBe('destructive');
    await advance(4_990);
    expect(screen.queryByText('Mainnet')).not.toBeNull();
    await advance(500);
    expect(screen.queryByText('Mainnet')).toBeNull();
  });

  it('is dismissed by a swipe past the 50 px threshold, not by one of 50 px', async () => {
    const toasts = new Subject<ToastMessage>();
    render(<SingleToast toasts$={toasts} />);
    await act(async () => toasts.next({ title: 'Exchange Connected', variant: 'default' }));
    const toast = () =>
      screen.queryByText('Exchange Connected')?.closest<HTMLElement>('[data-slot="toast"]') ?? null;
    await swipeRight(toast() as HTMLElement, 50);
    await advance(300);
    expect(toast()).not.toBeNull();
    await swipeRight(toast() as HTMLElement, 51);
    await advance(300);
    expect(toast()).toBeNull();
  });
});
