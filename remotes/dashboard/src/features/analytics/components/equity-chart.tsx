import type { AnalyticsEquityPoint } from '@kestrel/contracts';
import { formatPercent, formatUsdt } from '@kestrel/ui';
import {
  AreaSeries,
  ChartCanvas,
  type ChartConfig,
  ChartContainer,
  HistogramSeries,
  type IChartApi,
  percentPriceFormat,
  type Time,
  usdtPriceFormat,
  withAlpha,
} from '@kestrel/ui/chart';
import { useCallback } from 'react';

const CHART_HEIGHT = 340;

const config = {
  equity: { label: 'Equity', color: 'var(--primary)' },
  drawdown: { label: 'Drawdown', color: 'var(--destructive)' },
} satisfies ChartConfig;

/** Seconds, as the chart library counts time */
const seconds = (ms: number) => Math.floor(ms / 1000) as Time;

/**
 * Equity (margin balance) on top and the drawdown from the range's running peak beneath, in percent (each point
 * the deepest fall of its bucket). The default export, so the page loads it and the chart library lazily
 */
export default function EquityChart({
  points,
  maxDrawdownRatio,
}: {
  points: readonly AnalyticsEquityPoint[];
  maxDrawdownRatio: string | null;
}) {
  const build = useCallback(
    (chart: IChartApi, { colors }: { colors: Record<keyof typeof config, string> }) => {
      const equity = chart.addSeries(AreaSeries, {
        lineColor: colors.equity,
        topColor: withAlpha(colors.equity, 0.3),
        bottomColor: withAlpha(colors.equity, 0.02),
        lineWidth: 2,
        priceFormat: usdtPriceFormat,
        title: 'Equity',
      });
      equity.setData(points.map((p) => ({ time: seconds(p.time), value: Number(p.equity) })));
      const drawdown = chart.addSeries(
        HistogramSeries,
        {
          color: colors.drawdown,
          priceFormat: percentPriceFormat,
          title: 'Drawdown',
        },
        1,
      );
      drawdown.setData(points.map((p) => ({ time: seconds(p.time), value: -Number(p.drawdownRatio) * 100 })));
      chart.panes()[0]?.setStretchFactor(0.7);
      chart.panes()[1]?.setStretchFactor(0.3);
    },
    [points],
  );
  const last = points[points.length - 1];
  return (
    <ChartContainer
      config={config}
      title="Equity and drawdown"
      description={`${points.length} points, ending at ${formatUsdt(last ? Number(last.equity) : null)} USDT; deepest drawdown ${formatPercent(maxDrawdownRatio === null ? null : Number(maxDrawdownRatio))}`}
      className="db:rounded-xl db:border db:border-border db:bg-card db:p-4"
    >
      <ChartCanvas<typeof config> data-chart="equity" height={CHART_HEIGHT} build={build} />
    </ChartContainer>
  );
}
