import type { AnalyticsDay } from '@kestrel/contracts';

const DAY_MS = 86_400_000;

/** One square of the calendar: a UTC day of the range, with its net result when it had any income or snapshot */
export interface CalendarDay {
  day: number;
  /** YYYY-MM-DD */
  date: string;
  net: number | null;
  /** 0…1: |net| against the range's largest |net| (0 without a result) */
  intensity: number;
}

/** Weeks (Monday first) of the range, each 7 slots; slots outside the range are null */
export interface CalendarLayout {
  weeks: (CalendarDay | null)[][];
  /** Largest |net| of a day in the range (the scale's end) */
  maxAbs: number;
}

const dayOf = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;
/** 0 = Monday … 6 = Sunday */
const weekday = (t: number) => (new Date(t).getUTCDay() + 6) % 7;

/** Lays the range's days out in Monday-first weeks, GitHub style: a column per week, a row per weekday */
export function calendarLayout(days: readonly AnalyticsDay[], from: number, to: number): CalendarLayout {
  const byDay = new Map(days.map((d) => [d.day, Number(d.net)]));
  const maxAbs = Math.max(0, ...[...byDay.values()].map(Math.abs));
  const first = dayOf(from);
  const last = dayOf(to);
  const weeks: (CalendarDay | null)[][] = [];
  let week: (CalendarDay | null)[] = Array.from({ length: weekday(first) }, () => null);
  for (let day = first; day <= last; day += DAY_MS) {
    const net = byDay.get(day) ?? null;
    week.push({
      day,
      date: new Date(day).toISOString().slice(0, 10),
      net,
      intensity: net === null || maxAbs === 0 ? 0 : Math.abs(net) / maxAbs,
    });
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length > 0) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return { weeks, maxAbs };
}

/**
 * The square's colour: the theme's profit or loss token mixed into the muted background by intensity (at least a
 * quarter, so a small result still shows its sign); tokens, so both themes hold
 */
export function calendarColor(d: CalendarDay): string {
  if (d.net === null || Math.abs(d.net) < 0.005) return 'var(--muted)';
  const token = d.net > 0 ? 'var(--success)' : 'var(--destructive)';
  const share = Math.round(25 + 75 * d.intensity);
  return `color-mix(in oklab, ${token} ${share}%, var(--muted))`;
}
