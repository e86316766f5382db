import type { Bot, BotOrder } from '@kestrel/contracts/bots';
import { Spinner } from '@kestrel/ui';
import { QueryState } from '@kestrel/ui/panel';
import { lazy, Suspense } from 'react';
import { useBotPerformance } from '../api/get-bot-performance';
import { isLive } from '../lib/bot-words';

const BotStoryCharts = lazy(() => import('./bot-story-charts'));

const chartFallback = <Spinner label="Loading the charts…" />;

/** A bot's own chart (its fills and open orders on the candles) and its PnL curve, read when the card opens it */
export function BotStory({ bot, orders }: { bot: Bot; orders: readonly BotOrder[] }) {
  const story = useBotPerformance(bot.id, isLive(bot.state));
  return (
    <QueryState
      query={story}
      what="Its chart"
      loading="Loading its chart and PnL…"
      layout="inline"
      isEmpty={(data) => data.candles.length === 0}
      empty={
        <p className="bt:text-sm bt:text-muted-foreground">
          No closed {bot.interval} candle since it started yet: its chart begins with the first.
        </p>
      }
    >
      {(data) => (
        <div className="bt:flex bt:flex-col bt:gap-2">
          {data.fills.length === 0 && (
            <p className="bt:text-sm bt:text-muted-foreground">
              No fill yet: its PnL stays at zero until one comes.
            </p>
          )}
          {data.earlierFills > 0 && (
            <p className="bt:text-xs bt:text-muted-foreground">
              {data.earlierFills} earlier fills are before the chart's first candle: the curve starts from
              them.
            </p>
          )}
          <Suspense fallback={chartFallback}>
            <BotStoryCharts story={data} orders={orders} botName={bot.name} />
          </Suspense>
        </div>
      )}
    </QueryState>
  );
}
