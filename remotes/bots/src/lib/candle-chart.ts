import type { BacktestCandle } from '@kestrel/contracts/backtest';
import { formatPrice } from '@kestrel/ui';
import { CandlestickSeries, candleColors, type IChartApi, type Time } from '@kestrel/ui/chart';
import { type ChartTime, candleSeries } from '../features/backtesting/lib/chart-data';

/**
 * Candles on a chart, in the theme's up and down colours and priced as the app prices: the series and the chart
 * times of its candles (what markers snap to). Only the lazily loaded chart modules import this (it pulls the chart
 * library)
 */
export function addCandles(
  chart: IChartApi,
  colors: { up: string; down: string },
  candles: readonly Omit<BacktestCandle, 'volume'>[],
) {
  const data = candleSeries(candles);
  const series = chart.addSeries(CandlestickSeries, {
    ...candleColors(colors),
    priceFormat: { type: 'custom', formatter: (v: number) => formatPrice(v), minMove: 0.0001 },
  });
  series.setData(data.map((c) => ({ ...c, time: c.time as Time })));
  return { series, times: data.map((c): ChartTime => c.time) };
}
