import { KLINE_INTERVALS } from '@kestrel/contracts';
import { describe, expect, it } from 'vitest';
import {
  barOpenAtOrAfter,
  barOpenTime,
  countBars,
  intervalToMs,
  isCalendarInterval,
  MONTH_NOMINAL_MS,
  nextBarOpenTime,
} from './intervals';

const DAY = 86_400_000;
const utc = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h, min);

describe('kline intervals', () => {
  it('knows the length of every fixed interval, and a nominal month of a twelfth of 365 days', () => {
    expect(intervalToMs('1m')).toBe(60_000);
    expect(intervalToMs('1d')).toBe(DAY);
    expect(intervalToMs('3d')).toBe(3 * DAY);
    expect(intervalToMs('1w')).toBe(7 * DAY);
    expect(intervalToMs('1M')).toBe(MONTH_NOMINAL_MS);
    expect(MONTH_NOMINAL_MS * 12).toBe(365 * DAY);
    expect(isCalendarInterval('1M')).toBe(true);
    expect(isCalendarInterval('1w')).toBe(false);
  });

  it('names the interval and the accepted ones when it does not know it', () => {
    expect(() => intervalToMs('1y')).toThrow(/interval must be one of 1m, .*1d, 3d, 1w, 1M, got "1y"/);
    expect(() => barOpenTime('2d', 0)).toThrow(/got "2d"/);
    expect(() => countBars('1mo', 0, DAY)).toThrow(/got "1mo"/);
    // Names that are properties of every object are not intervals either
    expect(() => intervalToMs('constructor')).toThrow(/got "constructor"/);
  });

  it('does bar math for every interval of the API vocabulary, each bar longer than the one before', () => {
    const start = utc(2024, 2, 27, 13, 7);
    const lengths = KLINE_INTERVALS.map((interval) => {
      const open = barOpenTime(interval, start);
      const next = nextBarOpenTime(interval, open);
      expect(open).toBeLessThanOrEqual(start);
      expect(next).toBeGreaterThan(start);
      return next - open;
    });
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    expect(new Set(lengths).size).toBe(KLINE_INTERVALS.length);
  });

  it('aligns 3d bars to multiples of 3 days since the epoch', () => {
    expect(barOpenTime('3d', 0)).toBe(0);
    expect(barOpenTime('3d', 3 * DAY - 1)).toBe(0);
    expect(barOpenTime('3d', 3 * DAY)).toBe(3 * DAY);
    // 2026-01-01 is day 20454 = 3 × 6818; the bar holding 2026-01-03 23:59 still opens then
    expect(barOpenTime('3d', utc(2026, 1, 3, 23, 59))).toBe(utc(2026, 1, 1));
    expect(nextBarOpenTime('3d', utc(2026, 1, 1))).toBe(utc(2026, 1, 4));
  });

  it('opens 1w bars on Monday 00:00 UTC', () => {
    // Thursday 1 January 1970 belongs to the week that opened on Monday 29 December 1969
    expect(barOpenTime('1w', 0)).toBe(-3 * DAY);
    const sunday = utc(2026, 1, 11, 23, 59);
    expect(barOpenTime('1w', sunday)).toBe(utc(2026, 1, 5));
    expect(new Date(barOpenTime('1w', sunday)).getUTCDay()).toBe(1);
    expect(barOpenTime('1w', utc(2026, 1, 12))).toBe(utc(2026, 1, 12));
    expect(nextBarOpenTime('1w', utc(2026, 1, 5))).toBe(utc(2026, 1, 12));
  });

  it('opens 1M bars on the 1st of each month, 28 to 31 days apart', () => {
    expect(barOpenTime('1M', utc(2024, 2, 29, 12))).toBe(utc(2024, 2, 1));
    expect(barOpenTime('1M', utc(2025, 12, 31, 23, 59))).toBe(utc(2025, 12, 1));
    const lengths = (year: number) =>
      Array.from({ length: 12 }, (_, m) => {
        const open = utc(year, m + 1, 1);
        return (nextBarOpenTime('1M', open) - open) / DAY;
      });
    expect(lengths(2025)).toEqual([31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    expect(lengths(2024)[1]).toBe(29);
    // December rolls into January of the next year
    expect(nextBarOpenTime('1M', utc(2025, 12, 1))).toBe(utc(2026, 1, 1));
  });

  it('rounds a time up to the next bar open, or keeps it when a bar opens then', () => {
    expect(barOpenAtOrAfter('1h', 3_600_000)).toBe(3_600_000);
    expect(barOpenAtOrAfter('1h', 3_600_001)).toBe(7_200_000);
    expect(barOpenAtOrAfter('1w', utc(2026, 1, 6))).toBe(utc(2026, 1, 12));
    expect(barOpenAtOrAfter('1M', utc(2026, 1, 1))).toBe(utc(2026, 1, 1));
    expect(barOpenAtOrAfter('1M', utc(2026, 1, 1) + 1)).toBe(utc(2026, 2, 1));
  });

  it('counts the bars that open in a range', () => {
    expect(countBars('1m', 0, 60 * 60_000)).toBe(60);
    expect(countBars('1d', utc(2026, 1, 1, 12), utc(2026, 1, 3))).toBe(1);
    expect(countBars('3d', utc(2026, 1, 1), utc(2026, 1, 31))).toBe(10);
    // Mondays 5, 12, 19 and 26 January 2026
    expect(countBars('1w', utc(2026, 1, 1), utc(2026, 2, 1))).toBe(4);
    expect(countBars('1M', utc(2025, 3, 15), utc(2026, 2, 1))).toBe(10);
    expect(countBars('1M', utc(2025, 1, 1), utc(2026, 1, 1))).toBe(12);
    expect(countBars('1M', utc(2025, 1, 2), utc(2025, 1, 31))).toBe(0);
    expect(countBars('1M', utc(2026, 1, 1), utc(2025, 1, 1))).toBe(0);
  });
});
