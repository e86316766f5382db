import type { AnalyticsDay } from '@kestrel/contracts';
import { describe, expect, it } from 'vitest';
import { calendarColor, calendarLayout } from './calendar';

const day = (date: string, net: string): AnalyticsDay => ({
  day: Date.parse(`${date}T00:00:00Z`),
  realizedPnl: net,
  commission: '0',
  fundingFee: '0',
  other: '0',
  net,
  startEquity: '1000',
  return: null,
});

describe('the daily PnL calendar', () => {
  it('lays days out in Monday-first weeks, blanks outside the range, intensity against the largest day', () => {
    // 2026-11-04 is a Wednesday; 2026-11-10 a Tuesday
    const from = Date.parse('2026-11-04T00:00:00Z');
    const to = Date.parse('2026-11-10T12:00:00Z');
    const { weeks, maxAbs } = calendarLayout(
      [day('2026-11-05', '12.4'), day('2026-11-09', '-24.8')],
      from,
      to,
    );
    expect(maxAbs).toBe(24.8);
    expect(weeks.map((w) => w.map((d) => d?.date ?? null))).toEqual([
      [null, null, '2026-11-04', '2026-11-05', '2026-11-06', '2026-11-07', '2026-11-08'],
      ['2026-11-09', '2026-11-10', null, null, null, null, null],
    ]);
    expect(weeks[0]?.[3]).toMatchObject({ net: 12.4, intensity: 0.5 });
    expect(weeks[1]?.[0]).toMatchObject({ net: -24.8, intensity: 1 });
    expect(weeks[0]?.[4]).toMatchObject({ net: null, intensity: 0 });
  });

  it('colours by the theme tokens: gain green, loss red, nothing muted', () => {
    const [week] = calendarLayout(
      [day('2026-11-02', '10'), day('2026-11-03', '-5'), day('2026-11-04', '0')],
      Date.parse('2026-11-02T00:00:00Z'),
      Date.parse('2026-11-05T00:00:00Z'),
    ).weeks;
    expect(week?.map((d) => (d ? calendarColor(d) : null))).toEqual([
      'color-mix(in oklab, var(--success) 100%, var(--muted))',
      'color-mix(in oklab, var(--destructive) 63%, var(--muted))',
      'var(--muted)',
      'var(--muted)',
      null,
      null,
      null,
    ]);
  });
});
