import type { BacktestCandles, BacktestDetail } from '@kestrel/contracts/backtest';
import { formatPercent, formatUsdt } from '@kestrel/ui';
import {
  AreaSeries,
  ChartCanvas,
  type ChartConfig,
  ChartContainer,
  createSeriesMarkers,
  type IChartApi,
  LineSeries,
  percentPriceFormat,
  type SeriesMarker,
  type Time,
  usdtPriceFormat,
  withAlpha,
} from '@kestrel/ui/chart';
import { useCallback } from 'react';
import { addCandles } from '../../../lib/candle-chart';
import { equitySeries, snapMarkers } from '../lib/chart-data';

const CHART_HEIGHT = 320;
const MAX_LABELLED_MARKERS = 24;

const equityConfig = {
  equity: { label: 'Equity', color: 'var(--primary)' },
  drawdown: { label: 'Drawdown', color: 'var(--destructive)' },
} satisfies ChartConfig;

const candleConfig = {
  up: { label: 'Rising candle, long entry', color: 'var(--success)' },
  down: { label: 'Falling candle, short entry', color: 'var(--destructive)' },
  exit: { label: 'Exit', color: 'var(--foreground)' },
} satisfies ChartConfig;

type Colors<TConfig extends ChartConfig> = { colors: Record<keyof TConfig, string> };

/** Equity (top) and drawdown from the running peak (bottom pane, in percent) */
export function EquityChart({ detail }: { detail: BacktestDetail }) {
  const build = useCallback(
    (chart: IChartApi, { colors }: Colors<typeof equityConfig>) => {
      const points = equitySeries(detail.equity);
      const equity = chart.addSeries(LineSeries, {
        color: colors.equity,
        lineWidth: 2,
        priceFormat: usdtPriceFormat,
        title: 'Equity',
      });
      equity.setData(points.map((p) => ({ time: p.time as Time, value: p.equity })));
      const drawdown = chart.addSeries(
        AreaSeries,
        {
          lineColor: colors.drawdown,
          topColor: withAlpha(colors.drawdown, 0.05),
          bottomColor: withAlpha(colors.drawdown, 0.35),
          lineWidth: 1,
          invertFilledArea: true,
          priceFormat: percentPriceFormat,
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
    <ChartContainer
      config={equityConfig}
      title="Equity and drawdown"
      description={`${detail.equity.length} points, ending at ${formatUsdt(last?.equity)} USDT; largest drawdown ${formatPercent(detail.metrics?.maxDrawdown)}`}
    >
      <ChartCanvas<typeof equityConfig> data-chart="equity" height={CHART_HEIGHT} build={build} />
    </ChartContainer>
  );
}

/** The run's candles with its entries (arrows) and exits (dots) */
export function CandleChart({ detail, candles }: { detail: BacktestDetail; candles: BacktestCandles }) {
  const build = useCallback(
    (chart: IChartApi, { colors }: Colors<typeof candleConfig>) => {
      const { series, times } = addCandles(chart, colors, candles.candles);
      const snapped = snapMarkers(detail.markers, times);
      // Words help on a few marks; on many they only cover the candles (shape and colour still tell them apart)
      const labelled = snapped.length <= MAX_LABELLED_MARKERS;
      const markers = snapped.map((m): SeriesMarker<Time> => {
        const long = m.side === 'long';
        if (m.kind === 'entry') {
          return {
            time: m.time as Time,
            position: long ? 'belowBar' : 'aboveBar',
            shape: long ? 'arrowUp' : 'arrowDown',
            color: long ? colors.up : colors.down,
            ...(labelled ? { text: long ? 'Long' : 'Short' } : {}),
          };
        }
        return {
          time: m.time as Time,
          position: long ? 'aboveBar' : 'belowBar',
          shape: 'circle',
          color: colors.exit,
          ...(labelled ? { text: 'Exit' } : {}),
        };
      });
      createSeriesMarkers(series, markers);
    },
    [candles, detail.markers],
  );
  return (
    <ChartContainer
      config={candleConfig}
      title={`${detail.symbol} · ${candles.interval} candles with entries and exits`}
      description={`${candles.candles.length} candles; arrows mark entries (up: long, down: short), dots mark exits; ${detail.markers.length} marks`}
    >
      <ChartCanvas<typeof candleConfig> data-chart="candles" height={CHART_HEIGHT} build={build} />
    </ChartContainer>
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
