import type { BacktestCandles, BacktestDetail } from '@kestrel/contracts';
import {
  AreaSeries,
  CandlestickSeries,
  ColorType,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  LineSeries,
  type SeriesMarker,
  type Time,
} from 'lightweight-charts';
import { useEffect, useId, useRef } from 'react';
import { useChartTheme } from '../hooks/use-chart-theme';
import { candleSeries, equitySeries, snapMarkers } from '../lib/chart-data';
import { type ChartTheme, withAlpha } from '../lib/chart-theme';
import { formatMoney, formatPercent, formatPrice } from '../lib/format';

const CHART_HEIGHT = 320;
const MAX_LABELLED_MARKERS = 24;

function baseOptions(theme: ChartTheme) {
  return {
    autoSize: true,
    layout: {
      background: { type: ColorType.Solid, color: theme.background },
      textColor: theme.muted,
      fontFamily: getComputedStyle(document.documentElement).getPropertyValue('--font-mono') || 'monospace',
      attributionLogo: true,
      panes: { separatorColor: theme.border },
    },
    grid: {
      vertLines: { color: withAlpha(theme.border, 0.5) },
      horzLines: { color: withAlpha(theme.border, 0.5) },
    },
    rightPriceScale: { borderColor: theme.border },
    timeScale: { borderColor: theme.border, timeVisible: true, secondsVisible: false },
    crosshair: {
      horzLine: { labelBackgroundColor: theme.primary },
      vertLine: { labelBackgroundColor: theme.primary },
    },
  } as const;
}

/** Creates the chart once the theme is known and removes it on unmount; `build` adds the series */
function useChart(
  container: React.RefObject<HTMLDivElement | null>,
  theme: ChartTheme | null,
  build: (chart: IChartApi, theme: ChartTheme) => void,
  deps: readonly unknown[],
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: `build` is recreated each render; deps name its inputs
  useEffect(() => {
    if (!container.current || !theme) return;
    const chart = createChart(container.current, { ...baseOptions(theme), height: CHART_HEIGHT });
    build(chart, theme);
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [container, theme, ...deps]);
}

/** Equity (top) and drawdown from the running peak (bottom pane, in percent) */
export function EquityChart({ detail }: { detail: BacktestDetail }) {
  const ref = useRef<HTMLDivElement>(null);
  const ids = useId();
  const theme = useChartTheme(ref);
  useChart(
    ref,
    theme,
    (chart, t) => {
      const points = equitySeries(detail.equity);
      const equity = chart.addSeries(LineSeries, {
        color: t.primary,
        lineWidth: 2,
        priceFormat: { type: 'custom', formatter: (v: number) => formatMoney(v), minMove: 0.01 },
        title: 'Equity',
      });
      equity.setData(points.map((p) => ({ time: p.time as Time, value: p.equity })));
      const drawdown = chart.addSeries(
        AreaSeries,
        {
          lineColor: t.destructive,
          topColor: withAlpha(t.destructive, 0.05),
          bottomColor: withAlpha(t.destructive, 0.35),
          lineWidth: 1,
          invertFilledArea: true,
          priceFormat: { type: 'custom', formatter: (v: number) => formatPercent(v / 100), minMove: 0.01 },
          title: 'Drawdown',
        },
        1,
      );
      drawdown.setData(points.map((p) => ({ time: p.time as Time, value: p.drawdown })));
      chart.panes()[0]?.setStretchFactor(0.7);
      chart.panes()[1]?.setStretchFactor(0.3);
    },
    [detail.equity],
  );
  const last = detail.equity[detail.equity.length - 1];
  return (
    // The chart library adds its own links and cells, so the canvas frame is not an image: the figure is described
    <figure className="bt:flex bt:flex-col bt:gap-2" aria-describedby={`${ids}-equity`}>
      <figcaption className="bt:text-sm bt:font-medium">Equity and drawdown</figcaption>
      <p id={`${ids}-equity`} className="bt:sr-only">
        {`${detail.equity.length} points, ending at ${formatMoney(last?.equity)} USDT; largest drawdown ${formatPercent(detail.metrics?.maxDrawdown)}`}
      </p>
      <div ref={ref} data-chart="equity" className="bt:w-full" style={{ height: CHART_HEIGHT }} />
    </figure>
  );
}

/** The run's candles with its entries (arrows) and exits (dots) */
export function CandleChart({ detail, candles }: { detail: BacktestDetail; candles: BacktestCandles }) {
  const ref = useRef<HTMLDivElement>(null);
  const ids = useId();
  const theme = useChartTheme(ref);
  useChart(
    ref,
    theme,
    (chart, t) => {
      const data = candleSeries(candles.candles);
      const series = chart.addSeries(CandlestickSeries, {
        upColor: t.success,
        downColor: t.destructive,
        borderUpColor: t.success,
        borderDownColor: t.destructive,
        wickUpColor: t.success,
        wickDownColor: t.destructive,
        priceFormat: { type: 'custom', formatter: (v: number) => formatPrice(v), minMove: 0.0001 },
      });
      series.setData(data.map((c) => ({ ...c, time: c.time as Time })));
      const snapped = snapMarkers(
        detail.markers,
        data.map((c) => c.time),
      );
      // Words help on a few marks; on many they only cover the candles (shape and colour still tell them apart)
      const labelled = snapped.length <= MAX_LABELLED_MARKERS;
      const markers = snapped.map((m): SeriesMarker<Time> => {
        const long = m.side === 'long';
        if (m.kind === 'entry') {
          return {
            time: m.time as Time,
            position: long ? 'belowBar' : 'aboveBar',
            shape: long ? 'arrowUp' : 'arrowDown',
            color: long ? t.success : t.destructive,
            ...(labelled ? { text: long ? 'Long' : 'Short' } : {}),
          };
        }
        return {
          time: m.time as Time,
          position: long ? 'aboveBar' : 'belowBar',
          shape: 'circle',
          color: t.foreground,
          ...(labelled ? { text: 'Exit' } : {}),
        };
      });
      createSeriesMarkers(series, markers);
    },
    [candles, detail.markers],
  );
  return (
    <figure className="bt:flex bt:flex-col bt:gap-2" aria-describedby={`${ids}-candles`}>
      <figcaption className="bt:text-sm bt:font-medium">
        {detail.symbol} · {candles.interval} candles with entries and exits
      </figcaption>
      <p id={`${ids}-candles`} className="bt:sr-only">
        {`${candles.candles.length} candles; arrows mark entries (up: long, down: short), dots mark exits; ${detail.markers.length} marks`}
      </p>
      <div ref={ref} data-chart="candles" className="bt:w-full" style={{ height: CHART_HEIGHT }} />
    </figure>
  );
}

/** Both charts; the default export so the page can load this module (and the chart library) lazily */
export default function BacktestCharts({
  detail,
  candles,
}: {
  detail: BacktestDetail;
  candles: BacktestCandles | undefined;
}) {
  return (
    <div className="bt:grid bt:grid-cols-1 bt:gap-6 bt:xl:grid-cols-2">
      <EquityChart detail={detail} />
      {candles ? (
        <CandleChart detail={detail} candles={candles} />
      ) : (
        <div className="bt:flex bt:items-center bt:justify-center" style={{ height: CHART_HEIGHT }}>
          <span className="bt:text-sm bt:text-muted-foreground">Loading candles…</span>
        </div>
      )}
    </div>
  );
}
