import type { BotOrder, BotPerformance } from '@kestrel/contracts/bots';
import { formatUsdt } from '@kestrel/ui';
import {
  ChartCanvas,
  type ChartConfig,
  ChartContainer,
  createSeriesMarkers,
  type IChartApi,
  LineSeries,
  type SeriesMarker,
  type Time,
  usdtPriceFormat,
} from '@kestrel/ui/chart';
import { useCallback } from 'react';
import { addCandles } from '../../../lib/candle-chart';
import { toChartSeries } from '../../backtesting/lib/chart-data';
import { fillMarks, orderLines } from '../lib/story-data';

const CHART_HEIGHT = 280;

const candleConfig = {
  up: { label: 'Rising candle, buy fill', color: 'var(--success)' },
  down: { label: 'Falling candle, sell fill', color: 'var(--destructive)' },
} satisfies ChartConfig;

const pnlConfig = {
  total: { label: 'PnL (realized + unrealized)', color: 'var(--primary)' },
  realized: { label: 'Realized, after fees', color: 'var(--muted-foreground)' },
} satisfies ChartConfig;

type Colors<TConfig extends ChartConfig> = { colors: Record<keyof TConfig, string> };

/** A bot's card opened on its story: what it traded and earned, its open orders, and its name for the titles */
interface StoryChartsProps {
  story: BotPerformance;
  orders: readonly BotOrder[];
  botName: string;
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The bot's candles with its fills (arrows) and its open orders (dashed lines labelled on the price axis only) */
function FillsChart({ story, orders, botName }: StoryChartsProps) {
  const build = useCallback(
    (chart: IChartApi, { colors }: Colors<typeof candleConfig>) => {
      const { series, times } = addCandles(chart, colors, story.candles);
      const marks = fillMarks(story.fills, times);
      createSeriesMarkers(
        series,
        marks.map(
          (m): SeriesMarker<Time> => ({
            time: m.time as Time,
            position: m.side === 'BUY' ? 'belowBar' : 'aboveBar',
            shape: m.side === 'BUY' ? 'arrowUp' : 'arrowDown',
            color: m.side === 'BUY' ? colors.up : colors.down,
          }),
        ),
      );
      // Titles stay off the lines: on the chart they would cover the newest candles, the axis says the price
      for (const line of orderLines(orders)) {
        series.createPriceLine({
          price: line.price,
          title: '',
          color: line.side === 'BUY' ? colors.up : colors.down,
          lineWidth: 1,
          lineStyle: 2,
          axisLabelVisible: true,
        });
      }
    },
    [story, orders],
  );
  const lines = orderLines(orders).length;
  return (
    <ChartContainer
      config={candleConfig}
      title={`${story.symbol} · ${story.interval} with the fills of ${botName}`}
      description={`${count(story.candles.length, 'candle')}; ${count(story.fills.length, 'fill')} (arrows up: buys, down: sells)${lines > 0 ? `; ${count(lines, 'open order')} as dashed lines` : ''}`}
    >
      <ChartCanvas<typeof candleConfig> data-chart="bot-fills" height={CHART_HEIGHT} build={build} />
    </ChartContainer>
  );
}

/** The bot's PnL over time: the total (realized + unrealized) and the realized part, after fees */
function PnlChart({ story, botName }: Omit<StoryChartsProps, 'orders'>) {
  const build = useCallback(
    (chart: IChartApi, { colors }: Colors<typeof pnlConfig>) => {
      const points = toChartSeries(story.curve);
      const total = chart.addSeries(LineSeries, {
        color: colors.total,
        lineWidth: 2,
        priceFormat: usdtPriceFormat,
        title: 'PnL',
      });
      total.setData(points.map((p) => ({ time: p.time as Time, value: p.total })));
      const realized = chart.addSeries(LineSeries, {
        color: colors.realized,
        lineWidth: 1,
        lineStyle: 2,
        priceFormat: usdtPriceFormat,
        title: 'Realized',
      });
      realized.setData(points.map((p) => ({ time: p.time as Time, value: p.realized })));
    },
    [story.curve],
  );
  const last = story.curve.at(-1);
  return (
    <ChartContainer
      config={pnlConfig}
      title={`PnL of ${botName}`}
      description={`${count(story.curve.length, 'point')}, now ${formatUsdt(last?.total)} USDT (realized ${formatUsdt(last?.realized)}, unrealized ${formatUsdt(last?.unrealized)}); funding not included`}
    >
      <ChartCanvas<typeof pnlConfig> data-chart="bot-pnl" height={CHART_HEIGHT} build={build} />
    </ChartContainer>
  );
}

/** Both charts; the default export so a bot card loads this module (and the chart library) only when opened */
export default function BotStoryCharts({ story, orders, botName }: StoryChartsProps) {
  return (
    <div className="bt:flex bt:flex-col bt:gap-2">
      <div className="bt:grid bt:grid-cols-1 bt:gap-4 bt:xl:grid-cols-2">
        <FillsChart story={story} orders={orders} botName={botName} />
        <PnlChart story={story} botName={botName} />
      </div>
      {/* Shape and colour tell the marks apart; words on the chart would cover the newest candles */}
      <p aria-hidden="true" className="bt:flex bt:flex-wrap bt:gap-x-4 bt:text-xs bt:text-muted-foreground">
        <span>
          <span className="bt:text-success">▲</span> buy fill
        </span>
        <span>
          <span className="bt:text-destructive">▼</span> sell fill
        </span>
        <span>┄ open order (price on the axis)</span>
        <span>━ PnL · ┄ realized</span>
      </p>
    </div>
  );
}
