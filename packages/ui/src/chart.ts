// ui's stylesheet travels with the main entry, a shared module loaded once per page; importing the sheet here too
// would add a copy of it per entry point (stylesheets are never shared)
// biome-ignore lint/style/noRestrictedImports: ui's own main entry (self-reference), not another workspace package
import '@kestrel/ui';

// Pages draw through ui's copy of the chart library: a series built by a second copy would double the download
export {
  AreaSeries,
  CandlestickSeries,
  createSeriesMarkers,
  HistogramSeries,
  type IChartApi,
  LineSeries,
  type SeriesMarker,
  type Time,
} from 'lightweight-charts';
export {
  ChartCanvas,
  type ChartCanvasProps,
  type ChartConfig,
  ChartContainer,
  type ChartContainerProps,
  type ChartContextValue,
  type ChartTheme,
  candleColors,
  chartBaseOptions,
  percentPriceFormat,
  usdtPriceFormat,
  useChart,
  withAlpha,
} from './components/chart';
