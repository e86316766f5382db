import '../../styles.css';
import type { Bot } from '@kestrel/contracts/bots';
import { RemotePage, useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { Link } from '@kestrel/shared-runtime/router';
import { Button, buttonVariants, Spinner } from '@kestrel/ui';
import { useMemo } from 'react';
import { NoExchangeNote, useExchangeConnected } from '../../components/exchange-note';
import { NewBotLink } from '../../components/new-bot-link';
import { paths } from '../../config/paths';
import { useStrategies } from '../../features/backtesting/api/get-strategies';
import { QuickFigures } from '../../features/backtesting/components/quick-figures';
import { useBacktestNotices } from '../../features/backtesting/hooks/use-backtest-notices';
import { useTemplateRuns } from '../../features/backtesting/hooks/use-template-runs';
import { quickBacktestRequest } from '../../features/backtesting/lib/recent-window';
import { TemplateCard } from '../../features/bot-hub/components/template-card';
import { BOT_TEMPLATES } from '../../features/bot-hub/lib/templates';
import { type BotAction, useBotAction } from '../../features/bots/api/bot-actions';
import { useBotSuggestions } from '../../features/bots/api/get-bot-suggestion';
import { useBots } from '../../features/bots/api/get-bots';
import { BotGroups } from '../../features/bots/components/bot-groups';
import { BotsQueryState } from '../../features/bots/components/bots-query-state';
import { useConfirmBotAction } from '../../features/bots/components/confirm-bot-action';
import { useBotNotices } from '../../features/bots/hooks/use-bot-notices';

/**
 * The hub's figures: every template on the same market and window, with the values a new bot of it starts from
 * (the form's: drawn from the market now at its default leverage and budget; the strategy's defaults when the
 * market cannot be read)
 */
const HUB_MARKET = { symbol: 'BTCUSDT', interval: '1h' } as const;
const HUB_ASK = { symbol: HUB_MARKET.symbol, leverage: 3, budget: 100 } as const;

/** UTC day number: the hub's window changes once a day, so its requests (and their runs) are stable within one */
const today = () => Math.floor(Date.now() / 86_400_000);

/** Templates explained, each with a backtest on recent data; the user's bots by state with quick start and stop */
export default function BotHubPage() {
  useBacktestNotices();
  useBotNotices();
  const { notices } = useKestrelRuntime();
  const strategies = useStrategies();
  const bots = useBots();
  const connected = useExchangeConnected();
  const action = useBotAction();
  const confirmation = useConfirmBotAction(action);
  const day = today();

  const backtested = useMemo(
    () =>
      (strategies.data ?? []).filter((s) =>
        BOT_TEMPLATES.some((t) => t.strategy === s.id && !t.noQuickBacktest),
      ),
    [strategies.data],
  );
  const suggestions = useBotSuggestions(
    useMemo(() => backtested.map((s) => ({ strategy: s.id, ...HUB_ASK })), [backtested]),
  );
  // Asked once every template's market values are read (or failed): each run keeps the values it was made with
  const valuesRead = suggestions.every((s) => s.suggestion !== undefined);
  const requests = useMemo(
    () =>
      valuesRead
        ? backtested.map((s, i) => {
            const suggestion = suggestions[i]?.suggestion;
            return quickBacktestRequest(
              {
                strategy: s.id,
                params: suggestion?.params ?? s.defaults,
                ...HUB_MARKET,
                ...(suggestion ? { initialBalance: suggestion.budget, leverage: HUB_ASK.leverage } : {}),
              },
              day * 86_400_000,
            );
          })
        : [],
    [backtested, suggestions, valuesRead, day],
  );
  const fromMarket = new Set(backtested.filter((_, i) => suggestions[i]?.suggestion).map((s) => s.id));
  const runs = useTemplateRuns(requests);
  const strategyName = (id: string) => strategies.data?.find((s) => s.id === id)?.name ?? id;

  // Paper bots start and stop at once; a live bot says first that real orders are involved
  const onAction = (bot: Bot, next: BotAction) => {
    if (bot.mode === 'live') {
      confirmation.ask(bot, next);
      return;
    }
    action.mutate(
      { id: bot.id, action: next },
      {
        onError: (error) =>
          notices.toast({
            title: `${bot.name} could not ${next}`,
            description: error.message,
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <RemotePage
      remote="bots"
      title="Bot hub"
      description="Start from a template: what each strategy does, how it wins and loses, and how it did lately."
      actions={<NewBotLink />}
    >
      {connected === false && <NoExchangeNote />}
      <section aria-labelledby="hub-templates" className="bt:flex bt:flex-col bt:gap-3">
        <h2 id="hub-templates" className="bt:text-lg bt:font-semibold">
          Templates
        </h2>
        {strategies.error && (
          <div
            role="alert"
            className="bt:flex bt:flex-wrap bt:items-center bt:gap-2 bt:text-sm bt:text-destructive"
          >
            Strategies could not be loaded: {strategies.error.message}
            <Button size="sm" variant="outline" onClick={() => void strategies.refetch()}>
              Retry
            </Button>
          </div>
        )}
        <div className="bt:grid bt:grid-cols-1 bt:gap-4 bt:md:grid-cols-2 bt:xl:grid-cols-3">
          {BOT_TEMPLATES.map((template) => {
            const strategy = template.strategy;
            const served = strategies.data?.some((s) => s.id === strategy);
            if (strategies.data && !served) {
              return (
                <TemplateCard
                  key={strategy}
                  template={template}
                  unavailable={`This server does not offer the ${template.title} yet: nothing here runs or trades.`}
                />
              );
            }
            const run = runs[strategy];
            return (
              <TemplateCard
                key={strategy}
                template={template}
                figures={
                  strategies.isPending ? (
                    <Spinner label="Loading…" />
                  ) : template.noQuickBacktest ? (
                    <p className="bt:text-xs bt:text-muted-foreground">{template.noQuickBacktest}</p>
                  ) : run ? (
                    <QuickFigures
                      run={run.run}
                      error={run.error}
                      onRetry={run.retry}
                      label={`${template.title}: recent backtest`}
                      note={
                        fromMarket.has(strategy)
                          ? ', the values a new bot starts from (drawn from the market)'
                          : ', default parameters'
                      }
                    />
                  ) : null
                }
                action={
                  <Link
                    to={paths.createBot.getHref({ strategy })}
                    className={buttonVariants({ variant: 'outline', className: 'bt:w-full' })}
                    aria-label={`Use the ${template.title} template`}
                  >
                    Use this template
                  </Link>
                }
              />
            );
          })}
        </div>
      </section>

      <section aria-labelledby="hub-bots" className="bt:flex bt:flex-col bt:gap-3">
        <div className="bt:flex bt:flex-wrap bt:items-center bt:justify-between bt:gap-2">
          <h2 id="hub-bots" className="bt:text-lg bt:font-semibold">
            Your bots
          </h2>
          {bots.data && bots.data.length > 0 && (
            <Link to={paths.activeBots.getHref()} className="bt:text-sm bt:underline bt:underline-offset-4">
              Details on Active bots
            </Link>
          )}
        </div>
        <BotsQueryState
          bots={bots}
          emptyDescription="Use a template above: you choose its market, budget and limits, and try it on recent data before it runs on paper."
          emptyAction={
            <Link to={paths.createBot.getHref()} className={buttonVariants({})}>
              Create a bot
            </Link>
          }
        >
          {(list) => (
            <BotGroups
              bots={list}
              strategyName={strategyName}
              onAction={onAction}
              busyId={action.isPending ? (action.variables?.id ?? null) : null}
            />
          )}
        </BotsQueryState>
      </section>
      {confirmation.dialog}
    </RemotePage>
  );
}
