import { type IChartApi, LineSeries, percentPriceFormat, type Time } from '@kestrel/ui/chart';
import { returnSeries } from '../features/backtesting/lib/chart-data';

/**
 * A growth curve (1 = where it started) on a chart as its return in percent, titled on the price axis: the headline
 * line is thicker than the ones it is measured against. The walk-forward and the agent's evidence charts draw their
 * out-of-sample curves and benchmarks with it, so the two read alike. Only the lazily loaded chart modules import
 * this (it pulls the chart library)
 */
export function addReturnLine(
  chart: IChartApi,
  line: { color: string; title: string; headline?: boolean },
  growth: readonly { time: number; value: number }[],
) {
  const series = chart.addSeries(LineSeries, {
    color: line.color,
    lineWidth: line.headline ? 2 : 1,
    priceFormat: percentPriceFormat,
    title: line.title,
  });
  series.setData(returnSeries(growth).map((p) => ({ ...p, time: p.time as Time })));
}
