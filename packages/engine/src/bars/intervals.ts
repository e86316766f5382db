import { KLINE_INTERVALS, type KlineInterval } from '@kestrel/contracts';
import { EngineInputError } from '../errors';

/**
 * Bar math over Binance's kline intervals: their lengths and where their bars open. The names themselves are
 * `@kestrel/contracts`' `KLINE_INTERVALS` (they are on the wire). Everything up to 1d is a fixed length aligned to
 * the epoch; 3d bars are 3 days aligned to multiples of 3 days since the epoch; 1w bars open on Monday 00:00 UTC;
 * 1M bars open on the 1st of each month 00:00 UTC and last 28 to 31 days. A bar closes 1 ms before the next one
 * opens.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** 1970-01-01 was a Thursday: Mondays are 4 days past multiples of 7 days since the epoch */
const MONDAY_OFFSET = 4 * DAY;

/**
 * Nominal length of a 1M bar: a twelfth of the 365-day year the metrics annualise with, so twelve monthly bars
 * count as one year and their returns annualise with 12 periods a year. Real months are 28 to 31 days: use
 * `nextBarOpenTime` for bar boundaries.
 */
export const MONTH_NOMINAL_MS = (365 * DAY) / 12;

/** Every interval but the calendar month has a fixed length (the type makes a new interval in the list fail here) */
const FIXED: Readonly<Record<Exclude<KlineInterval, '1M'>, number>> = {
  '1m': MINUTE,
  '3m': 3 * MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': HOUR,
  '2h': 2 * HOUR,
  '4h': 4 * HOUR,
  '6h': 6 * HOUR,
  '8h': 8 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
  '3d': 3 * DAY,
  '1w': 7 * DAY,
};

const LENGTHS: ReadonlyMap<string, number> = new Map(Object.entries(FIXED));

function fixedLength(interval: string): number | undefined {
  const ms = LENGTHS.get(interval);
  if (ms === undefined && interval !== '1M') {
    throw new EngineInputError(`interval must be one of ${KLINE_INTERVALS.join(', ')}, got "${interval}"`);
  }
  return ms;
}

/**
 * Milliseconds of a Binance interval name ('1m', '4h', '1d', '1w'…). For '1M' this is the nominal month
 * (`MONTH_NOMINAL_MS`), fine for estimates and annualisation, not for bar boundaries.
 */
export function intervalToMs(interval: string): number {
  return fixedLength(interval) ?? MONTH_NOMINAL_MS;
}

/** True for intervals whose bars differ in length (1M): bar boundaries need `barOpenTime`/`nextBarOpenTime` */
export function isCalendarInterval(interval: string): boolean {
  return fixedLength(interval) === undefined;
}

/** Open time of the bar that contains `time` (ms) */
export function barOpenTime(interval: string, time: number): number {
  const len = fixedLength(interval);
  if (len === undefined) {
    const d = new Date(time);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const offset = interval === '1w' ? MONDAY_OFFSET : 0;
  return Math.floor((time - offset) / len) * len + offset;
}

/** Open time of the bar after the one opening at `openTime` (its close time is this − 1 ms) */
export function nextBarOpenTime(interval: string, openTime: number): number {
  const len = fixedLength(interval);
  if (len !== undefined) return barOpenTime(interval, openTime) + len;
  const d = new Date(openTime);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** The first bar open time at or after `time` */
export function barOpenAtOrAfter(interval: string, time: number): number {
  const open = barOpenTime(interval, time);
  return open === time ? open : nextBarOpenTime(interval, open);
}

/** How many bars open in [start, end) */
export function countBars(interval: string, start: number, end: number): number {
  const from = barOpenAtOrAfter(interval, start);
  const to = barOpenAtOrAfter(interval, end);
  if (to <= from) return 0;
  const len = fixedLength(interval);
  if (len !== undefined) return Math.round((to - from) / len);
  const a = new Date(from);
  const b = new Date(to);
  return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
}
