import { errors } from '../common/errors';
import { MINUTE_MS, type MinuteBar, type PriceSource } from './price-feed';

/*
 * The simulator keeps its own intervals and bar math on purpose instead of importing the platform's (contracts
 * `market.ts`, engine `intervals.ts`): it plays Binance, a separate system, and sharing our code would make it agree
 * with our bugs. Agreement with the engine on bar boundaries is checked from the server side, through the
 * package's exported `INTERVALS`, `barOpen` and `nextBarOpen`.
 */

const HOUR = 60 * MINUTE_MS;
const DAY = 24 * HOUR;
// 1970-01-01 was a Thursday; Binance's weekly bars open on Monday 00:00 UTC
const MONDAY_OFFSET = 4 * DAY;

/** Every interval `GET /fapi/v1/klines` accepts, in Binance's spelling */
export const INTERVALS = [
  '1m',
  '3m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '4h',
  '6h',
  '8h',
  '12h',
  '1d',
  '3d',
  '1w',
  '1M',
] as const;
export type Interval = (typeof INTERVALS)[number];

const FIXED: Record<Exclude<Interval, '1M'>, number> = {
  '1m': MINUTE_MS,
  '3m': 3 * MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '30m': 30 * MINUTE_MS,
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

export function parseInterval(raw: string | undefined): Interval {
  if (raw === undefined || raw === '') throw errors.mandatory('interval');
  if (!(INTERVALS as readonly string[]).includes(raw)) throw errors.badInterval();
  return raw as Interval;
}

/** Open time of the bar containing `ms` */
export function barOpen(interval: Interval, ms: number): number {
  if (interval === '1M') {
    const d = new Date(ms);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const len = FIXED[interval];
  const offset = interval === '1w' ? MONDAY_OFFSET : 0;
  return Math.floor((ms - offset) / len) * len + offset;
}

/** Open time of the bar after the one opening at `open` */
export function nextBarOpen(interval: Interval, open: number): number {
  if (interval === '1M') {
    const d = new Date(open);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return open + FIXED[interval];
}

function previousBarOpen(interval: Interval, open: number): number {
  if (interval === '1M') {
    const d = new Date(open);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
  }
  return open - FIXED[interval];
}

export interface Kline extends MinuteBar {
  closeTime: number;
}

/**
 * The open bar of each feed and interval, summed over its minutes that have ended (they never change): a kline
 * stream re-sends the open bar every second, and a 1M bar is up to 44 640 minutes to add up each time.
 */
const openBars = new WeakMap<PriceSource, Map<Interval, { open: number; upTo: number; bar?: Kline }>>();

/** Aggregates 1-minute bars into one bar [open, next); the still-open bar is cut at `now` */
export function aggregate(
  feed: PriceSource,
  interval: Interval,
  open: number,
  now: number,
): Kline | undefined {
  const next = nextBarOpen(interval, open);
  const first = Math.max(open, feed.firstOpenTime);
  if (next <= now || interval === '1m') return addMinutes(feed, undefined, open, next, first, next, now).bar;
  // Minutes that ended by `now`, summed once and kept; then the minute still running
  const ended = Math.min(next, Math.floor(now / MINUTE_MS) * MINUTE_MS);
  let cache = openBars.get(feed);
  if (!cache) {
    cache = new Map();
    openBars.set(feed, cache);
  }
  const kept = cache.get(interval);
  const resume = kept && kept.open === open && kept.upTo <= ended && kept.upTo >= first;
  const from = resume ? kept.upTo : first;
  const sum = addMinutes(
    feed,
    resume && kept.bar ? { ...kept.bar } : undefined,
    open,
    next,
    from,
    ended,
    now,
  );
  if (sum.stopped) return sum.bar;
  cache.set(interval, { open, upTo: Math.max(from, ended), ...(sum.bar ? { bar: { ...sum.bar } } : {}) });
  return addMinutes(feed, sum.bar, open, next, Math.max(from, ended), next, now).bar;
}

/** Adds the minutes [from, to) that have started by `now` to `out`; stops at the first minute the feed lacks */
function addMinutes(
  feed: PriceSource,
  start: Kline | undefined,
  open: number,
  next: number,
  from: number,
  to: number,
  now: number,
): { bar: Kline | undefined; stopped: boolean } {
  let out = start;
  for (let t = from; t < to && t <= now; t += MINUTE_MS) {
    const bar = feed.bar(t, now);
    if (!bar) return { bar: out, stopped: true };
    if (!out) {
      out = { ...bar, openTime: open, closeTime: next - 1 };
      continue;
    }
    if (bar.high > out.high) out.high = bar.high;
    if (bar.low < out.low) out.low = bar.low;
    out.close = bar.close;
    out.volume += bar.volume;
    out.quoteVolume += bar.quoteVolume;
    out.trades += bar.trades;
    out.takerBuyBase += bar.takerBuyBase;
    out.takerBuyQuote += bar.takerBuyQuote;
  }
  return { bar: out, stopped: false };
}

export interface KlineQuery {
  interval: Interval;
  startTime?: number;
  endTime?: number;
  limit: number;
}

/**
 * Bars as Binance selects them: from `startTime` forward when given, otherwise the latest `limit` bars ending at
 * `endTime` (or now); never bars before the feed's history or after now
 */
export function klines(feed: PriceSource, q: KlineQuery, now: number): Kline[] {
  const end = Math.min(q.endTime ?? now, now);
  const out: Kline[] = [];
  if (q.startTime !== undefined) {
    let open = barOpen(q.interval, Math.max(q.startTime, feed.firstOpenTime));
    if (open < q.startTime) open = nextBarOpen(q.interval, open);
    while (out.length < q.limit && open <= end) {
      const bar = aggregate(feed, q.interval, open, now);
      if (bar) out.push(bar);
      open = nextBarOpen(q.interval, open);
    }
    return out;
  }
  let open = barOpen(q.interval, end);
  while (out.length < q.limit && nextBarOpen(q.interval, open) > feed.firstOpenTime) {
    const bar = aggregate(feed, q.interval, open, now);
    if (bar) out.push(bar);
    open = previousBarOpen(q.interval, open);
  }
  return out.reverse();
}

/** Request weight of a klines call, by limit, as Binance documents it */
export function klinesWeight(limit: number): number {
  if (limit < 100) return 1;
  if (limit < 500) return 2;
  if (limit <= 1000) return 5;
  return 10;
}
