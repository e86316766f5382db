import '../../styles.css';
import type { Bot } from '@kestrel/contracts/bots';
import { RemotePage } from '@kestrel/shared-runtime/react';
import { Link } from '@kestrel/shared-runtime/router';
import { buttonVariants } from '@kestrel/ui';
import { QueryState } from '@kestrel/ui/panel';
import { NoExchangeNote, useExchangeConnected } from '../../components/exchange-note';
import { NewBotLink } from '../../components/new-bot-link';
import { paths } from '../../config/paths';
import { useStrategies } from '../../features/backtesting/api/get-strategies';
import { useBotAction } from '../../features/bots/api/bot-actions';
import { useBots } from '../../features/bots/api/get-bots';
import { useBotsSummary } from '../../features/bots/api/get-bots-summary';
import { BotCard } from '../../features/bots/components/bot-card';
import { BotsQueryState } from '../../features/bots/components/bots-query-state';
import { BotsSummary } from '../../features/bots/components/bots-summary';
import { useConfirmBotAction } from '../../features/bots/components/confirm-bot-action';
import { useBotNotices } from '../../features/bots/hooks/use-bot-notices';
import { GROUP_OF } from '../../features/bots/lib/bot-words';

const ORDER = { running: 0, paused: 1, error: 2, stopped: 3 } as const;

/** Running bots first, then paused ones (their orders stand), those an error stopped, the rest; newest first in each */
function ordered(bots: readonly Bot[]): Bot[] {
  return [...bots].sort(
    (a, b) => ORDER[GROUP_OF[a.state]] - ORDER[GROUP_OF[b.state]] || b.createdAt - a.createdAt,
  );
}

/** Every bot of the user with its state, PnL, position, orders, log and actions; the summary over all of them on top */
export default function ActiveBotsPage() {
  useBotNotices();
  const connected = useExchangeConnected();
  const summary = useBotsSummary();
  const bots = useBots();
  const strategies = useStrategies();
  const action = useBotAction();
  const confirmation = useConfirmBotAction(action);
  const strategyName = (id: string) => strategies.data?.find((s) => s.id === id)?.name ?? id;
  const takesSignals = (id: string) => strategies.data?.find((s) => s.id === id)?.takesSignals ?? false;

  return (
    <RemotePage
      remote="bots"
      title="Active bots"
      description="Your bots as they run: profit and loss, position, orders and their log, live."
      actions={<NewBotLink />}
    >
      {connected === false && <NoExchangeNote />}
      {/* No bot, no summary: zeros of nothing would only look like data */}
      {bots.data?.length !== 0 && (
        <section aria-label="Summary of all bots">
          <QueryState
            query={summary}
            what="The summary"
            loading="Loading the summary…"
            layout="inline"
            errorFirst
          >
            {(data) => <BotsSummary summary={data} />}
          </QueryState>
        </section>
      )}
      <BotsQueryState
        bots={bots}
        emptyDescription="Pick a template in the bot hub, try it on recent data, then start it on paper."
        emptyAction={
          <Link to={paths.botHub.getHref()} className={buttonVariants({})}>
            Go to the bot hub
          </Link>
        }
      >
        {(list) => (
          <div className="bt:flex bt:flex-col bt:gap-4">
            {ordered(list).map((bot) => (
              <BotCard
                key={bot.id}
                bot={bot}
                strategyName={strategyName(bot.strategy)}
                takesSignals={takesSignals(bot.strategy)}
                onAction={confirmation.ask}
              />
            ))}
          </div>
        )}
      </BotsQueryState>
      {confirmation.dialog}
    </RemotePage>
  );
}
