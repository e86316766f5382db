import { describe, expect, it } from 'vitest';
import { customRangeError, rangeFromParams, rangeToParams, resolveRange } from './range';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-25T08:30:00Z');
const TODAY = Date.parse('2026-11-25T00:00:00Z');

describe('analytics ranges', () => {
  it('presets end now and start at 00:00 UTC, whole days counted with today', () => {
    expect(resolveRange({ preset: '7d' }, NOW)).toEqual({ from: TODAY - 6 * DAY, to: NOW });
    expect(resolveRange({ preset: '30d' }, NOW)).toEqual({ from: TODAY - 29 * DAY, to: NOW });
    expect(resolveRange({ preset: '90d' }, NOW)).toEqual({ from: TODAY - 89 * DAY, to: NOW });
    expect(resolveRange({ preset: 'all' }, NOW)).toEqual({ from: 0, to: NOW });
  });

  it('custom dates are UTC days, both included', () => {
    expect(resolveRange({ preset: 'custom', from: '2026-11-01', to: '2026-11-03' }, NOW)).toEqual({
      from: Date.parse('2026-11-01T00:00:00Z'),
      to: Date.parse('2026-11-04T00:00:00Z') - 1,
    });
    expect(customRangeError('', '2026-11-03')).toBe('Choose a start date');
    expect(customRangeError('2026-11-04', '2026-11-03')).toBe(
      'The start date must not be after the end date',
    );
    expect(customRangeError('2026-11-03', '2026-11-03')).toBeNull();
  });

  it('round-trips through the address; anything unreadable falls back to 30 days', () => {
    for (const range of [
      { preset: '90d' },
      { preset: 'custom', from: '2026-10-01', to: '2026-10-31' },
    ] as const)
      expect(rangeFromParams(new URLSearchParams(rangeToParams(range)))).toEqual(range);
    expect(rangeFromParams(new URLSearchParams('range=1y'))).toEqual({ preset: '30d' });
    expect(rangeFromParams(new URLSearchParams('from=2026-10-31&to=2026-10-01'))).toEqual({ preset: '30d' });
  });
});
