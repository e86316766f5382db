import type { Notification } from '@kestrel/contracts/account';
import { describe, expect, it } from 'vitest';
import { groupNotifications } from './group-notifications';

let n = 0;
const notice = (over: Partial<Notification>): Notification => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  event: 'order_filled',
  title: 'Bot “Grid” (paper BTCUSDT): order filled',
  message: 'Bought 0.002 at 64,000.0',
  read: false,
  createdAt: Date.UTC(2026, 11, 4, 12, 0, 50),
  ...over,
});

describe('groupNotifications', () => {
  it('makes a minute of one bot’s fills one line, and keeps other notices apart, newest first', () => {
    const t = Date.UTC(2026, 11, 4, 12, 0, 50);
    const items = [
      notice({ createdAt: t, message: 'Sold 0.002 at 64,100.0' }),
      notice({ createdAt: t - 10_000, read: true }),
      notice({ event: 'kill_switch', title: 'Kill switch', createdAt: t - 20_000 }),
      notice({ createdAt: t - 30_000 }),
      notice({ createdAt: t - 50_000 }),
      // Over a minute before the newest fill of its run: a line of its own
      notice({ createdAt: t - 95_000 }),
      notice({ title: 'Bot “DCA” (paper ETHUSDT): order filled', createdAt: t - 96_000 }),
    ];
    const groups = groupNotifications(items);
    expect(groups.map((g) => [g.title, g.ids.length, g.unreadIds.length])).toEqual([
      ['Bot “Grid” (paper BTCUSDT): order filled', 2, 1],
      ['Kill switch', 1, 1],
      ['Bot “Grid” (paper BTCUSDT): order filled', 2, 2],
      ['Bot “Grid” (paper BTCUSDT): order filled', 1, 1],
      ['Bot “DCA” (paper ETHUSDT): order filled', 1, 1],
    ]);
    // A line speaks with its newest notice
    expect(groups[0]).toMatchObject({ message: 'Sold 0.002 at 64,100.0', createdAt: t });
  });

  it('shows one kind of notice under its filter', () => {
    const items = [
      notice({}),
      notice({ event: 'kill_switch', title: 'Kill switch' }),
      notice({ event: 'new_device_signin', title: 'Sign-in from a new device' }),
    ];
    expect(groupNotifications(items, 'risk').map((g) => g.event)).toEqual(['kill_switch']);
    expect(groupNotifications(items, 'account').map((g) => g.event)).toEqual(['new_device_signin']);
    expect(groupNotifications(items, 'trading').map((g) => g.event)).toEqual(['order_filled']);
    expect(groupNotifications(items)).toHaveLength(3);
  });
});
