import type { Bot, BotOrder } from '@kestrel/contracts/bots';
import { Button, Spinner } from '@kestrel/ui';
import { lazy, Suspense } from 'react';
import { useBotPerformance } from '../api/get-bot-performance';
import { isLive } from '../lib/bot-words';

const BotStoryCharts = lazy(() => import('./bot-story-charts'));

const chartFallback = <Spinner label="Loading the charts…" />;

/** A bot's own chart (its fills and open orders on the candles) and its PnL curve, read when the card opens it */
export function BotStory({ bot, orders }: { bot: Bot; orders: readonly BotOrder[] }) {
  const story = useBotPerformance(bot.id, isLive(bot.state));
  if (story.isPending) return <Spinner label="Loading its chart and PnL…" />;
  if (story.error) {
    return (
      <div
        role="alert"
        className="bt:flex bt:flex-wrap bt:items-center bt:gap-2 bt:text-sm bt:text-destructive"
      >
        Its chart could not be loaded: {story.error.message}
        <Button size="sm" variant="outline" onClick={() => void story.refetch()}>
          Retry
        </Button>
      </div>
    );
  }
  const data = story.data;
  if (data.candles.length === 0) {
    return (
      <p className="bt:text-sm bt:text-muted-foreground">
        No closed {data.interval} candle since it started yet: its chart begins with the first.
      </p>
    );
  }
  return (
    <div className="bt:flex bt:flex-col bt:gap-2">
      {data.fills.length === 0 && (
        <p className="bt:text-sm bt:text-muted-foreground">
          No fill yet: its PnL stays at zero until one comes.
        </p>
      )}
      {data.earlierFills > 0 && (
        <p className="bt:text-xs bt:text-muted-foreground">
          {data.earlierFills} earlier fills are before the chart's first candle: the curve starts from them.
        </p>
      )}
      <Suspense fallback={chartFallback}>
        <BotStoryCharts story={data} orders={orders} botName={bot.name} />
      </Suspense>
    </div>
  );
}
