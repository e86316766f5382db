import type { BotCandle, BotPlan } from '@kestrel/contracts/bots';
import { formatPrice } from '@kestrel/ui';
import { ChartCanvas, type ChartConfig, ChartContainer, type IChartApi } from '@kestrel/ui/chart';
import { useCallback } from 'react';
import { addCandles } from '../../../lib/candle-chart';

const CHART_HEIGHT = 260;

const config = {
  up: { label: 'Rising candle, buy order', color: 'var(--success)' },
  down: { label: 'Falling candle, sell order', color: 'var(--destructive)' },
  price: { label: 'Price now', color: 'var(--foreground)' },
} satisfies ChartConfig;

type Colors = { colors: Record<keyof typeof config, string> };

/**
 * The last days of the symbol with the plan's orders as lines at their prices (dashed; dotted for those placed only
 * after a fill) and the price now: where a grid's range or a DCA bot's safety orders sit against how it moved
 */
export default function OrderPlanChart({
  plan,
  candles,
  symbol,
}: {
  plan: BotPlan;
  candles: readonly BotCandle[];
  symbol: string;
}) {
  const build = useCallback(
    (chart: IChartApi, { colors }: Colors) => {
      const { series } = addCandles(chart, colors, candles);
      // Titles stay off the lines (they would cover the newest candles): the axis says each price
      for (const o of plan.orders) {
        series.createPriceLine({
          price: o.price,
          title: '',
          color: o.side === 'BUY' ? colors.up : colors.down,
          lineWidth: 1,
          lineStyle: o.later ? 1 : 2,
          axisLabelVisible: !o.later,
        });
      }
      series.createPriceLine({
        price: plan.price,
        title: '',
        color: colors.price,
        lineWidth: 1,
        lineStyle: 0,
        axisLabelVisible: true,
      });
    },
    [plan, candles],
  );
  const buys = plan.orders.filter((o) => o.side === 'BUY').length;
  const sells = plan.orders.length - buys;
  return (
    <ChartContainer
      config={config}
      title={`${symbol} · last 7 days with the bot's orders`}
      description={`${candles.length} hourly candles; ${buys} buy and ${sells} sell orders as lines, the price now ${formatPrice(plan.price)} as a solid line`}
    >
      <ChartCanvas<typeof config> data-chart="order-plan" height={CHART_HEIGHT} build={build} />
    </ChartContainer>
  );
}
