import { describe, expect, it } from 'vitest';
import { KNOWN_SYMBOLS, type SymbolSpec } from '../common/symbols';
import { aggregate, barOpen, klines } from './klines';
import { GeneratedFeed, MINUTE_MS } from './price-feed';
import { ReplayFeed } from './replay-feed';

const btc = KNOWN_SYMBOLS.find((s) => s.symbol === 'BTCUSDT') as SymbolSpec;
const NOW = Date.UTC(2026, 0, 15, 9, 30, 20);
const DAY = 86_400_000;

function onTick(price: number, tick = 0.1): boolean {
  return Math.abs(Math.round(price / tick) * tick - price) < 1e-6;
}

describe('generated prices', () => {
  it('are the same for the same seed and differ for another', () => {
    const a = new GeneratedFeed(btc, 42, NOW - 2 * DAY);
    const b = new GeneratedFeed(btc, 42, NOW - 2 * DAY);
    const c = new GeneratedFeed(btc, 43, NOW - 2 * DAY);
    const times = [NOW - DAY, NOW - 3_600_000, NOW, NOW + 12_345];
    expect(times.map((t) => a.priceAt(t))).toEqual(times.map((t) => b.priceAt(t)));
    expect(times.map((t) => a.priceAt(t))).not.toEqual(times.map((t) => c.priceAt(t)));
  });

  it('move every second and stay inside their minute bar, on the tick grid', () => {
    const feed = new GeneratedFeed(btc, 1, NOW - DAY);
    const open = Math.floor(NOW / MINUTE_MS) * MINUTE_MS;
    const bar = feed.bar(open);
    if (!bar) throw new Error('no bar');
    const seconds = Array.from({ length: 60 }, (_, s) => feed.priceAt(open + s * 1000));
    expect(new Set(seconds).size).toBeGreaterThan(5);
    for (const p of seconds) {
      expect(p).toBeGreaterThanOrEqual(bar.low);
      expect(p).toBeLessThanOrEqual(bar.high);
      expect(onTick(p)).toBe(true);
    }
    expect(bar.open).toBe(seconds[0]);
    expect(bar.close).toBe(feed.priceAt(open + MINUTE_MS));
    // The still-open bar ends at the current price
    expect(feed.bar(open, open + 30_500)?.close).toBe(feed.priceAt(open + 30_500));
  });

  it('gives a year of 1m history with realistic volatility and volatility clustering', () => {
    const start = NOW - 365 * DAY;
    const feed = new GeneratedFeed(btc, 9, start);
    const hourly: number[] = [];
    for (let t = start; t <= NOW; t += 3_600_000) hourly.push(feed.priceAt(t));
    const returns = hourly.slice(1).map((p, i) => Math.log(p / (hourly[i] as number)));
    const sd = (xs: number[]) => {
      const m = xs.reduce((a, b) => a + b, 0) / xs.length;
      return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
    };
    const annual = sd(returns) * Math.sqrt(24 * 365);
    expect(annual).toBeGreaterThan(0.2);
    expect(annual).toBeLessThan(1.5);
    const daily: number[] = [];
    for (let d = 0; d + 24 <= returns.length; d += 24) daily.push(sd(returns.slice(d, d + 24)));
    daily.sort((a, b) => a - b);
    // Calm and stormy days: the busiest tenth is far more volatile than the calmest tenth
    const q = (f: number) => daily[Math.floor(f * (daily.length - 1))] as number;
    expect(q(0.9) / q(0.1)).toBeGreaterThan(2.5);
    expect(Math.min(...hourly)).toBeGreaterThan(btc.startPrice / 5);
    expect(Math.max(...hourly)).toBeLessThan(btc.startPrice * 5);
    expect(feed.bar(start)?.open).toBe(btc.startPrice);
  });
});

describe('klines', () => {
  const feed = new GeneratedFeed(btc, 3, NOW - 40 * DAY);

  it('aggregates 1m bars into a 1h bar', () => {
    const open = Date.UTC(2026, 0, 14, 5);
    const hour = aggregate(feed, '1h', open, NOW);
    const minutes = klines(feed, { interval: '1m', startTime: open, limit: 60 }, NOW);
    expect(minutes).toHaveLength(60);
    expect(hour?.open).toBe(minutes[0]?.open);
    expect(hour?.close).toBe(minutes[59]?.close);
    expect(hour?.high).toBe(Math.max(...minutes.map((m) => m.high)));
    expect(hour?.low).toBe(Math.min(...minutes.map((m) => m.low)));
    expect(hour?.volume).toBeCloseTo(
      minutes.reduce((a, m) => a + m.volume, 0),
      6,
    );
    expect(hour?.closeTime).toBe(open + 3_600_000 - 1);
  });

  it('aligns weeks to Monday and months to the 1st, UTC', () => {
    expect(new Date(barOpen('1w', NOW)).getUTCDay()).toBe(1);
    expect(barOpen('1w', NOW)).toBe(Date.UTC(2026, 0, 12));
    expect(barOpen('1M', NOW)).toBe(Date.UTC(2026, 0, 1));
    const months = klines(feed, { interval: '1M', limit: 5 }, NOW);
    expect(months.map((m) => m.openTime)).toEqual([Date.UTC(2025, 11, 1), Date.UTC(2026, 0, 1)]);
    expect(months[1]?.closeTime).toBe(Date.UTC(2026, 1, 1) - 1);
  });

  it('ends with the open bar, cut at now', () => {
    const last = klines(feed, { interval: '15m', limit: 2 }, NOW).at(-1);
    expect(last?.openTime).toBe(Date.UTC(2026, 0, 15, 9, 30));
    expect(last?.close).toBe(feed.priceAt(NOW));
  });
});

describe('replayed prices', () => {
  const csv = [
    'open_time,open,high,low,close,volume',
    '1768469400000,100,110,95,105,12',
    '1768469460000,105,106,90,92,3',
  ].join('\n');

  it('reads a klines CSV and walks open → low → high → close inside a rising bar', () => {
    const feed = ReplayFeed.fromCsv(btc, csv);
    const t = 1768469400000;
    expect(feed.priceAt(t)).toBeCloseTo(100, 6);
    expect(feed.priceAt(t + 20_000)).toBeCloseTo(95, 6);
    expect(feed.priceAt(t + 40_000)).toBeCloseTo(110, 6);
    // Falling bar: open → high → low → close
    expect(feed.priceAt(t + 80_000)).toBeCloseTo(106, 6);
    expect(feed.priceAt(t + 100_000)).toBeCloseTo(90, 6);
    // After the last bar the price holds
    expect(feed.priceAt(t + 10 * MINUTE_MS)).toBeCloseTo(92, 6);
    expect(feed.bar(t)).toMatchObject({ open: 100, high: 110, low: 95, close: 105, volume: 12 });
  });

  it('rejects malformed rows with the line number', () => {
    expect(() => ReplayFeed.fromCsv(btc, 'open_time,o,h,l,c,v\n1768469400000,100,x,95,105,1')).toThrow(
      /line 2/,
    );
    expect(() => ReplayFeed.fromCsv(btc, '1768469400000,100,99,95,105,1')).toThrow(/low\/high/);
  });
});
