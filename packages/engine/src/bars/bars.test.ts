import { describe, expect, it } from 'vitest';
import { BarSeries, barsFromKlines, generateBars, type KlineRow } from './bars';
import { intervalToMs } from './intervals';

describe('bars', () => {
  it('loads Binance kline rows (prices as strings) into columns', () => {
    const rows: KlineRow[] = [
      [
        1_700_000_000_000,
        '37000.10',
        '37010.00',
        '36990.50',
        '37005.20',
        '12.345',
        1_700_000_059_999,
        '456789.1',
        100,
        '6',
        '222',
        '0',
      ],
      [
        1_700_000_060_000,
        '37005.20',
        '37020.00',
        '37000.00',
        '37015.00',
        '3.2',
        1_700_000_119_999,
        '1',
        5,
        '1',
        '1',
        '0',
      ],
    ];
    const bars = barsFromKlines(rows, '1m');
    expect(bars.length).toBe(2);
    expect(bars.intervalMs).toBe(60_000);
    expect(Array.from(bars.close.subarray(0, 2))).toEqual([37005.2, 37015]);
    expect(bars.volume[0]).toBe(12.345);
  });

  it('names what is wrong with a bad kline or interval', () => {
    expect(() => barsFromKlines([[1, '1', '1', '1', '1']] as unknown as KlineRow[], '1m')).toThrow(
      /kline 0 must be an array/,
    );
    expect(() => barsFromKlines([[1, 'x', '1', '1', '1', '1']], '1m')).toThrow(
      /bar 0 open must be a finite number/,
    );
    expect(() => intervalToMs('7m')).toThrow(/interval must be one of/);
  });

  it('grows when bars are appended live and slices copies for windows', () => {
    const s = new BarSeries(60_000, 1);
    for (let i = 0; i < 5; i++) s.append(i * 60_000, 10 + i, 11 + i, 9 + i, 10 + i, 1);
    expect(s.length).toBe(5);
    expect(s.close.length).toBeGreaterThanOrEqual(5);
    const w = s.slice(1, 3);
    expect(Array.from(w.close.subarray(0, w.length))).toEqual([11, 12]);
    w.close[0] = 0;
    expect(s.close[1]).toBe(11);
  });

  it('corrects its newest bar when a forming bar closes, and refuses any other', () => {
    const s = new BarSeries(60_000, 4);
    s.append(0, 10, 10, 10, 10, 0);
    s.append(60_000, 10, 10, 10, 10, 0);
    s.replaceLast(60_000, 10, 12, 9, 11, 5);
    expect(s.length).toBe(2);
    expect([s.high[1], s.low[1], s.close[1], s.volume[1]]).toEqual([12, 9, 11, 5]);
    expect(() => s.replaceLast(0, 10, 10, 10, 10, 0)).toThrow(/not the newest bar/);
    expect(() => s.replaceLast(60_000, 10, 9, 9, 11, 5)).toThrow(/high\/low must contain/);
    expect([s.length, s.close[1]]).toEqual([2, 11]);
  });

  it('wraps columns handed over by a worker message without copying them, and refuses uneven ones', () => {
    const source = generateBars({ seed: 3, count: 5 });
    const columns = {
      openTime: source.openTime,
      open: source.open,
      high: source.high,
      low: source.low,
      close: source.close,
      volume: source.volume,
    };
    const series = BarSeries.fromColumns(60_000, columns);
    expect(series.length).toBe(5);
    expect(series.close).toBe(source.close);
    expect(series.intervalMs).toBe(60_000);
    expect(() => BarSeries.fromColumns(60_000, { ...columns, low: source.low.subarray(0, 4) })).toThrow(
      'bar column low has 4 values, openTime has 5',
    );
  });

  it('generates the same bars for the same seed and different ones otherwise', () => {
    const a = generateBars({ seed: 5, count: 100 });
    const b = generateBars({ seed: 5, count: 100 });
    const c = generateBars({ seed: 6, count: 100 });
    expect(b.close).toEqual(a.close);
    expect(c.close).not.toEqual(a.close);
    for (let i = 0; i < 100; i++) {
      expect(a.high[i]).toBeGreaterThanOrEqual(Math.max(a.open[i] as number, a.close[i] as number));
      expect(a.low[i]).toBeLessThanOrEqual(Math.min(a.open[i] as number, a.close[i] as number));
    }
  });
});
