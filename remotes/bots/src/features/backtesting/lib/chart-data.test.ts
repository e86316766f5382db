import { describe, expect, it } from 'vitest';
import { candleSeries, equitySeries, returnSeries, snapMarkers, toChartSeries } from './chart-data';

describe('chart series', () => {
  it('turns ms into strictly increasing seconds, the later point winning a shared second', () => {
    expect(
      toChartSeries([
        { time: 1_000, v: 1 },
        { time: 1_500, v: 2 },
        { time: 3_000, v: 3 },
        { time: 2_000, v: 9 },
      ]),
    ).toEqual([
      { time: 1, v: 2 },
      { time: 3, v: 3 },
    ]);
  });

  it('draws drawdown as a negative percentage under the equity', () => {
    expect(equitySeries([{ time: 60_000, equity: 9_500, drawdown: 0.05 }])).toEqual([
      { time: 60, equity: 9_500, drawdown: -5 },
    ]);
  });

  it('draws a growth curve as its return in percent, a loss below zero', () => {
    expect(
      returnSeries([
        { time: 0, value: 1 },
        { time: 60_000, value: 1.125 },
        { time: 120_000, value: 0.9 },
      ]),
    ).toEqual([
      { time: 0, value: 0 },
      { time: 60, value: 12.5 },
      { time: 120, value: expect.closeTo(-10) },
    ]);
  });

  it('keeps only what a candle needs', () => {
    expect(candleSeries([{ time: 0, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 }])).toEqual([
      { time: 0, open: 1, high: 2, low: 0.5, close: 1.5 },
    ]);
  });
});

describe('trade markers on coarser candles', () => {
  const hour = 3_600;
  const candles = [0, hour, 2 * hour, 3 * hour];

  it('moves each mark onto the candle that holds it, in time order', () => {
    const marks = snapMarkers(
      [
        { time: (2 * hour + 900) * 1000, price: 10, kind: 'exit', side: 'long' },
        { time: (hour + 60) * 1000, price: 9, kind: 'entry', side: 'long' },
        { time: 3 * hour * 1000, price: 11, kind: 'entry', side: 'short' },
      ],
      candles,
    );
    expect(marks.map((m) => [m.time, m.kind, m.side])).toEqual([
      [hour, 'entry', 'long'],
      [2 * hour, 'exit', 'long'],
      [3 * hour, 'entry', 'short'],
    ]);
  });

  it('drops marks before the first candle and has none without candles', () => {
    expect(snapMarkers([{ time: -5_000, price: 1, kind: 'entry', side: 'long' }], candles)).toEqual([]);
    expect(snapMarkers([{ time: 0, price: 1, kind: 'entry', side: 'long' }], [])).toEqual([]);
  });
});
