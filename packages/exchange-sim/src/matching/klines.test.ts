import { describe, expect, it } from 'vitest';
import { KNOWN_SYMBOLS, type SymbolSpec } from '../common/symbols';
import { aggregate, barOpen, type Interval, type Kline, klines, nextBarOpen } from './klines';
import { GeneratedFeed, MINUTE_MS } from './price-feed';

const btc = KNOWN_SYMBOLS.find((s) => s.symbol === 'BTCUSDT') as SymbolSpec;
const DAY = 86_400_000;
// Thursday 15 January 2026, 09:30:20 UTC
const NOW = Date.UTC(2026, 0, 15, 9, 30, 20);
const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

/** 100 days of history: from 7 October 2025 */
const feed = new GeneratedFeed(btc, 5, NOW - 100 * DAY);

/** The 1m bars of [from, to), read page by page as a client would */
function minutes(from: number, to: number): Kline[] {
  const out: Kline[] = [];
  let cursor = from;
  while (cursor < to) {
    const page = klines(feed, { interval: '1m', startTime: cursor, endTime: to - 1, limit: 1500 }, NOW);
    if (page.length === 0) break;
    out.push(...page);
    cursor = (page.at(-1) as Kline).openTime + MINUTE_MS;
  }
  return out;
}

/** The bar the 1m bars of [open, close] add up to */
function fromMinutes(open: number, closeTime: number) {
  const ms = minutes(open, closeTime + 1);
  return {
    open: ms[0]?.open,
    high: Math.max(...ms.map((m) => m.high)),
    low: Math.min(...ms.map((m) => m.low)),
    close: ms.at(-1)?.close,
    trades: ms.reduce((a, m) => a + m.trades, 0),
  };
}

describe('3d, 1w and 1M klines', () => {
  it('open 3d bars on multiples of 3 days since the epoch, 1w on Mondays, 1M on the 1st', () => {
    const threeDays = klines(feed, { interval: '3d', startTime: utc(2025, 12, 1), limit: 4 }, NOW);
    // 1 December 2025 is day 20423 = 3 × 6807 + 2: the first 3d open at or after it is 2 December
    expect(threeDays.map((k) => k.openTime)).toEqual([
      utc(2025, 12, 2),
      utc(2025, 12, 5),
      utc(2025, 12, 8),
      utc(2025, 12, 11),
    ]);
    expect(threeDays.every((k) => k.openTime % (3 * DAY) === 0)).toBe(true);
    expect(threeDays[0]?.closeTime).toBe(utc(2025, 12, 5) - 1);

    const weeks = klines(feed, { interval: '1w', startTime: utc(2025, 12, 1), limit: 3 }, NOW);
    expect(weeks.map((k) => k.openTime)).toEqual([utc(2025, 12, 1), utc(2025, 12, 8), utc(2025, 12, 15)]);
    expect(weeks.map((k) => new Date(k.openTime).getUTCDay())).toEqual([1, 1, 1]);
    expect(weeks[0]?.closeTime).toBe(utc(2025, 12, 8) - 1);

    // Close time = next open − 1 ms: 30, 31 and 31 days; the last bar is January's, still open
    const months = klines(feed, { interval: '1M', startTime: utc(2025, 11, 1), limit: 10 }, NOW);
    expect(months.map((k) => k.openTime)).toEqual([utc(2025, 11, 1), utc(2025, 12, 1), utc(2026, 1, 1)]);
    expect(months.map((k) => (k.closeTime + 1 - k.openTime) / DAY)).toEqual([30, 31, 31]);
    expect(months[2]?.close).toBe(feed.priceAt(NOW));
  });

  it('give a first bar at its calendar open even when the history starts inside it', () => {
    // History starts on 7 October: October's bar opens on the 1st, with the first minute's open
    const [october] = klines(feed, { interval: '1M', limit: 1, endTime: utc(2025, 10, 20) }, NOW);
    expect(october?.openTime).toBe(utc(2025, 10, 1));
    expect(october?.open).toBe(feed.bar(feed.firstOpenTime)?.open);
  });

  it.each<[Interval, number]>([
    ['3d', utc(2025, 12, 2)],
    ['1w', utc(2025, 12, 8)],
    ['1M', utc(2025, 12, 1)],
  ])('%s bars are the sum of the 1m bars inside them', (interval, open) => {
    const [bar] = klines(feed, { interval, startTime: open, limit: 1 }, NOW);
    expect(bar?.openTime).toBe(open);
    expect(bar).toMatchObject(fromMinutes(open, bar?.closeTime as number));
  });

  it('select by startTime, endTime and limit as for every other interval', () => {
    // startTime inside a week: from the next Monday; endTime: bars opening at or before it
    const weeks = klines(
      feed,
      { interval: '1w', startTime: utc(2025, 11, 5), endTime: utc(2025, 12, 1), limit: 500 },
      NOW,
    );
    expect(weeks.map((k) => k.openTime)).toEqual([
      utc(2025, 11, 10),
      utc(2025, 11, 17),
      utc(2025, 11, 24),
      utc(2025, 12, 1),
    ]);
    // Without startTime: the last `limit` bars up to endTime
    const lastMonths = klines(feed, { interval: '1M', endTime: utc(2025, 12, 31), limit: 2 }, NOW);
    expect(lastMonths.map((k) => k.openTime)).toEqual([utc(2025, 11, 1), utc(2025, 12, 1)]);
    // limit cuts from the start
    expect(klines(feed, { interval: '3d', startTime: utc(2025, 11, 1), limit: 2 }, NOW)).toHaveLength(2);
    // Nothing before the history, nothing after now
    expect(
      klines(feed, { interval: '1M', startTime: utc(2025, 1, 1), endTime: utc(2025, 9, 30), limit: 5 }, NOW),
    ).toEqual([]);
    expect(klines(feed, { interval: '1w', startTime: NOW + DAY, limit: 5 }, NOW)).toEqual([]);
  });

  it('keep the open bar exact while it grows, second by second, as a kline stream reads it', () => {
    // A fresh feed each time: one reads the month every second (the sum of ended minutes is kept), the other once
    const live = new GeneratedFeed(btc, 9, NOW - 20 * DAY);
    const open = barOpen('1M', NOW);
    let last: Kline | undefined;
    for (let t = NOW; t <= NOW + 3 * MINUTE_MS; t += 1000) last = aggregate(live, '1M', open, t);
    const once = aggregate(new GeneratedFeed(btc, 9, NOW - 20 * DAY), '1M', open, NOW + 3 * MINUTE_MS);
    expect(last).toEqual(once);
    expect(last?.closeTime).toBe(nextBarOpen('1M', open) - 1);
    // And a closed bar read after the open one is summed in full, not from the kept part
    const december = aggregate(live, '1M', utc(2025, 12, 1), NOW);
    expect(december).toEqual(
      aggregate(new GeneratedFeed(btc, 9, NOW - 20 * DAY), '1M', utc(2025, 12, 1), NOW),
    );
  });
});
