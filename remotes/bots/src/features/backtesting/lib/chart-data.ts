import type { BacktestCandle, BacktestMarker, EquityPoint } from '@kestrel/contracts/backtest';

/** Seconds since 1970, the chart library's time unit */
export type ChartTime = number;

/**
 * Points on strictly increasing whole seconds, as the chart library requires: ms become seconds and a point that
 * lands on the same second as the one before replaces it (the later value is the newer state)
 */
export function toChartSeries<T extends { time: number }>(points: readonly T[]): (T & { time: ChartTime })[] {
  const out: (T & { time: ChartTime })[] = [];
  for (const point of points) {
    const time = Math.floor(point.time / 1000);
    const last = out[out.length - 1];
    if (last && time < last.time) continue;
    if (last && time === last.time) out[out.length - 1] = { ...point, time };
    else out.push({ ...point, time });
  }
  return out;
}

export function equitySeries(points: readonly EquityPoint[]) {
  return toChartSeries(points).map((p) => ({
    time: p.time,
    equity: p.equity,
    drawdown: -Math.abs(p.drawdown) * 100,
  }));
}

/** A growth curve (1 = where it started) as its return in percent, what `percentPriceFormat` reads: 1.125 → 12.5 */
export function returnSeries(growth: readonly { time: number; value: number }[]) {
  return toChartSeries(growth).map((p) => ({ time: p.time, value: (p.value - 1) * 100 }));
}

export function candleSeries<T extends Omit<BacktestCandle, 'volume'>>(candles: readonly T[]) {
  return toChartSeries(candles).map(({ time, open, high, low, close }) => ({ time, open, high, low, close }));
}

export interface ChartMarker {
  time: ChartTime;
  kind: BacktestMarker['kind'];
  side: BacktestMarker['side'];
  price: number;
}

/** Index of the last candle opening at or before `t` (seconds), −1 before the first */
export function candleAt(candleTimes: readonly ChartTime[], t: ChartTime): number {
  if (candleTimes.length === 0 || t < (candleTimes[0] as number)) return -1;
  let lo = 0;
  let hi = candleTimes.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((candleTimes[mid] as number) <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Markers moved onto the candle that holds them (the candles may be coarser than the run's bars), in time order;
 * markers outside the candles' range are dropped
 */
export function snapMarkers(
  markers: readonly BacktestMarker[],
  candleTimes: readonly ChartTime[],
): ChartMarker[] {
  const snapped: ChartMarker[] = [];
  for (const marker of markers) {
    const at = candleAt(candleTimes, Math.floor(marker.time / 1000));
    if (at < 0) continue;
    snapped.push({
      time: candleTimes[at] as number,
      kind: marker.kind,
      side: marker.side,
      price: marker.price,
    });
  }
  return snapped.sort((a, b) => a.time - b.time);
}
