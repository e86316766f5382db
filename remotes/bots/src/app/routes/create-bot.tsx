import '../../styles.css';
import type { BacktestStrategyInfo } from '@kestrel/contracts/backtest';
import type { Bot, CreateBotRequestInput } from '@kestrel/contracts/bots';
import { ConnectExchangeButton } from '@kestrel/shared-runtime/federation';
import { RemotePage, useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { Link, useNavigate, useSearchParams } from '@kestrel/shared-runtime/router';
import { Button, buttonVariants, Card, CardContent, EmptyState, Spinner } from '@kestrel/ui';
import { useCallback, useMemo } from 'react';
import { useExchangeConnected } from '../../components/exchange-note';
import { paths } from '../../config/paths';
import { useStrategies } from '../../features/backtesting/api/get-strategies';
import { BacktestPreview } from '../../features/backtesting/components/backtest-preview';
import { useBacktestNotices } from '../../features/backtesting/hooks/use-backtest-notices';
import { quickBacktestRequest } from '../../features/backtesting/lib/recent-window';
import { BotForm, type BotFormSubmit } from '../../features/bot-form/components/bot-form';
import { OrderPlanPreview } from '../../features/bot-form/components/order-plan-preview';
import {
  BOT_OWNED_PARAMS,
  botToFormValues,
  defaultBotValues,
  prefilledBotValues,
  prefillOf,
  toUpdateRequest,
} from '../../features/bot-form/lib/bot-form';
import { AGENT_STRATEGY } from '../../features/bot-hub/lib/templates';
import { useCreateBot } from '../../features/bots/api/create-bot';
import { useBotStatus } from '../../features/bots/api/get-bot-status';
import { type BotSuggestionAsk, getBotSuggestion } from '../../features/bots/api/get-bot-suggestion';
import { useUpdateBot } from '../../features/bots/api/update-bot';
import { canEdit } from '../../features/bots/lib/bot-words';
import { ParamsFields } from '../../features/strategy-params/components/params-fields';
import {
  describeParams,
  paramsToFormValues,
  parseStrategyParams,
} from '../../features/strategy-params/lib/params-schema';

const owned = new Set<string>(BOT_OWNED_PARAMS);

/** The strategy's parameter fields, less the ones the bot sets itself (its leverage) */
function botParamFields(strategy: BacktestStrategyInfo) {
  return describeParams(strategy.paramsJsonSchema).filter((f) => !owned.has(f.key));
}

function renderParams(strategy: BacktestStrategyInfo) {
  // Keyed by strategy: fields mount afresh with the new strategy's values when it changes
  return <ParamsFields key={strategy.id} fields={botParamFields(strategy)} />;
}

/** The settings that shape a bot's orders, as the plan is asked for */
const planAsk = (request: CreateBotRequestInput) => ({
  strategy: request.strategy,
  params: request.params ?? {},
  symbol: request.symbol,
  leverage: request.leverage,
  budget: request.budget,
});

/** Under the parameters as they are typed: the orders they make (the AI agent places none ahead) */
function renderPlan(request: CreateBotRequestInput, takesSignals: boolean) {
  if (request.strategy === AGENT_STRATEGY) return null;
  // Nothing stands at its start: each alert sends its order then, sized as the parameters say
  if (takesSignals) return <p className="bt:text-sm bt:text-muted-foreground">{SIGNALS_NO_PLAN}</p>;
  return <OrderPlanPreview ask={planAsk(request)} />;
}

function renderPreview(request: CreateBotRequestInput, takesSignals: boolean) {
  if (request.strategy === AGENT_STRATEGY) {
    // Seven days of bars train no model: the agent's page shows walk-forward evidence once it has trained
    return <p className="bt:text-sm bt:text-muted-foreground">{AGENT_NO_PREVIEW}</p>;
  }
  if (takesSignals) {
    // Its bars never trade: a backtest of it would show "0 trades", which says nothing of the alerts it will follow
    return (
      <p role="note" aria-label="No quick backtest" className="bt:text-sm bt:text-muted-foreground">
        {SIGNALS_NO_PREVIEW}
      </p>
    );
  }
  const backtest = quickBacktestRequest(
    {
      strategy: request.strategy,
      params: request.params ?? {},
      symbol: request.symbol,
      interval: request.interval,
      initialBalance: request.budget,
      leverage: request.leverage,
    },
    Date.now(),
  );
  return (
    <div className="bt:flex bt:flex-col bt:gap-4">
      <OrderPlanPreview ask={planAsk(request)} />
      <BacktestPreview request={backtest} />
    </div>
  );
}

type Purpose = { kind: 'new' } | { kind: 'edit'; id: string } | { kind: 'clone'; id: string };

function purposeOf(search: URLSearchParams): Purpose {
  const edit = search.get('edit');
  if (edit) return { kind: 'edit', id: edit };
  const clone = search.get('clone');
  if (clone) return { kind: 'clone', id: clone };
  return { kind: 'new' };
}

const AGENT_NO_PREVIEW =
  'No quick backtest for an AI agent: it trains on more history than 7 days hold. Once saved, "Train now" on its page trains it and shows its out-of-sample evidence against buy-and-hold and random entries before you start it.';

const SIGNALS_NO_PLAN =
  'No orders stand at its start: each buy or sell alert sends one at once, at market (or at the price the alert names), sized from the budget unless the alert names a quantity.';
const SIGNALS_NO_PREVIEW =
  'No quick backtest: it trades only on the alerts posted to its webhook, and past bars carry none, so a backtest of it would make no trade at all. Start it and send a test alert instead: on the simulator or testnet no money is at stake.';

const TITLES = { new: 'Create bot', edit: 'Edit bot', clone: 'Clone bot' } as const;

/** What saving an edit does to the bot in its state (running: restarts it; paused: waits for the resume) */
function editNote(name: string, state: Bot['state']): string | null {
  if (state === 'running') {
    return `${name} is running. A new name applies at once; new parameters, leverage, budget or risk limits restart it: its orders are canceled, then laid anew from the price now. Its strategy, symbol, interval and mode change only once it is stopped or paused.`;
  }
  if (state === 'paused') return `${name} is paused: the new settings apply when you resume it.`;
  return null;
}

/** The toast after a save: what the bot does now */
function savedWords(saved: Bot, before: Bot | undefined, agent: boolean): string {
  if (saved.state === 'running') {
    return before && saved.startedAt !== before.startedAt
      ? 'It started again with the new settings, from the price now.'
      : 'It runs on: only its name changed.';
  }
  if (saved.state === 'paused') return 'It is paused: resume it when you are ready.';
  return agent
    ? 'It is stopped: train it and read its evidence on its page, then start it.'
    : 'It is stopped: start it when you are ready.';
}

/**
 * A new bot step by step (`?strategy=grid` starts on a template), an existing one edited (`?edit=<id>`), or a copy
 * of one (`?clone=<id>`): the same form, the same checks
 */
export default function CreateBotPage() {
  const [search] = useSearchParams();
  const purpose = purposeOf(search);
  const navigate = useNavigate();
  const { notices, api } = useKestrelRuntime();
  useBacktestNotices();
  const strategies = useStrategies();
  const source = useBotStatus(purpose.kind === 'new' ? null : purpose.id);
  const connected = useExchangeConnected();
  const create = useCreateBot();
  const update = useUpdateBot();

  const paramsToForm = useCallback(
    (strategyId: string, params?: Record<string, unknown>) => {
      const strategy = strategies.data?.find((s) => s.id === strategyId);
      if (!strategy) return params ?? {};
      return paramsToFormValues(params ?? strategy.defaults, describeParams(strategy.paramsJsonSchema));
    },
    [strategies.data],
  );

  // A new bot from a template starts from the market; a prefilled one (an optimisation's combination) keeps its values
  const suggest = useCallback(
    async (ask: BotSuggestionAsk, signal: AbortSignal) => {
      const suggestion = await getBotSuggestion(api, ask, signal);
      return { ...suggestion, formParams: paramsToForm(ask.strategy, suggestion.params) };
    },
    [api, paramsToForm],
  );

  const sourceBot: Bot | undefined = source.data?.bot;
  const wanted = search.get('strategy');
  // The prefill's part of the address as a string: a stable dependency, and the form's key
  const prefillKey = ['symbol', 'interval', 'params']
    .flatMap((k) => {
      const v = search.get(k);
      return v === null ? [] : [`${k}=${encodeURIComponent(v)}`];
    })
    .join('&');
  const initialValues = useMemo(() => {
    if (!strategies.data) return null;
    if (purpose.kind !== 'new') {
      return sourceBot ? botToFormValues(sourceBot, paramsToForm, { clone: purpose.kind === 'clone' }) : null;
    }
    const strategy = strategies.data.find((s) => s.id === wanted) ?? strategies.data[0];
    const base = defaultBotValues(strategy, (id) => paramsToForm(id));
    // A combination opened from an optimisation: its market and parameters, over the strategy's defaults
    if (!strategy || strategy.id !== wanted) return base;
    return prefilledBotValues(
      base,
      prefillOf(new URLSearchParams(prefillKey)),
      (params) => paramsToForm(strategy.id, { ...strategy.defaults, ...params }),
      strategy.name,
    );
  }, [strategies.data, purpose.kind, sourceBot, wanted, paramsToForm, prefillKey]);

  const takesSignals = useCallback(
    (id: string) => strategies.data?.find((s) => s.id === id)?.takesSignals ?? false,
    [strategies.data],
  );
  const plan = useCallback(
    (request: CreateBotRequestInput) => renderPlan(request, takesSignals(request.strategy)),
    [takesSignals],
  );
  const preview = useCallback(
    (request: CreateBotRequestInput) => renderPreview(request, takesSignals(request.strategy)),
    [takesSignals],
  );

  // A running bot is changed in place: its name at once, the rest by the restart the review step announces
  const runningEdit = purpose.kind === 'edit' && sourceBot?.state === 'running';
  const onSubmit = async ({ values, request }: BotFormSubmit) => {
    const saved =
      purpose.kind === 'edit'
        ? await update.mutateAsync({
            id: purpose.id,
            request: {
              ...toUpdateRequest(values, request.params ?? {}),
              ...(runningEdit ? { restart: true } : {}),
            },
          })
        : await create.mutateAsync(request);
    const agent = saved.kind === 'agent' || saved.strategy === AGENT_STRATEGY;
    notices.toast({
      title: purpose.kind === 'edit' ? `${saved.name} saved` : `${saved.name} created`,
      description: savedWords(saved, sourceBot, agent),
      variant: 'default',
    });
    // An agent's place is its own page (training, evidence, decisions); other bots' is their card
    navigate(agent ? paths.agent.getHref(saved.id) : paths.activeBots.getHref(saved.id));
  };

  const blocked =
    purpose.kind === 'edit' && sourceBot && !canEdit(sourceBot.state)
      ? `${sourceBot.name} is ${sourceBot.state}: wait until it runs or rests on Active bots before changing it.`
      : null;
  const saveNote = purpose.kind === 'edit' && sourceBot ? editNote(sourceBot.name, sourceBot.state) : null;

  const loading = strategies.isPending || (purpose.kind !== 'new' && source.isPending);
  const failure = strategies.error
    ? `Strategies could not be loaded: ${strategies.error.message}`
    : purpose.kind !== 'new' && source.error
      ? `The bot could not be loaded: ${source.error.message}`
      : null;

  return (
    <RemotePage
      remote="bots"
      title={TITLES[purpose.kind]}
      description={
        purpose.kind === 'edit' && sourceBot
          ? `Change ${sourceBot.name}. It keeps its log and its PnL so far.`
          : 'Pick a strategy, its market and limits, try it on recent data, then save it stopped.'
      }
    >
      {loading ? (
        <Card>
          <CardContent>
            <Spinner label={purpose.kind === 'new' ? 'Loading strategies…' : 'Loading the bot…'} />
          </CardContent>
        </Card>
      ) : failure ? (
        purpose.kind !== 'new' && source.error?.message && !strategies.error ? (
          <EmptyState
            title="This bot could not be loaded"
            description={failure}
            action={
              <Link to={paths.activeBots.getHref()} className={buttonVariants({ variant: 'outline' })}>
                Back to active bots
              </Link>
            }
          />
        ) : (
          <div
            role="alert"
            className="bt:flex bt:flex-wrap bt:items-center bt:gap-3 bt:text-sm bt:text-destructive"
          >
            {failure}
            <Button variant="outline" size="sm" onClick={() => void strategies.refetch()}>
              Retry
            </Button>
          </div>
        )
      ) : strategies.data && initialValues ? (
        <BotForm
          key={`${purpose.kind}:${purpose.kind === 'new' ? `${wanted ?? ''}?${prefillKey}` : purpose.id}`}
          label={TITLES[purpose.kind]}
          strategies={strategies.data}
          initialValues={initialValues}
          renderParams={renderParams}
          paramsToForm={(id) => paramsToForm(id)}
          validateParams={parseStrategyParams}
          renderPreview={preview}
          renderPlan={plan}
          exchangeConnected={connected}
          connectAction={<ConnectExchangeButton />}
          submitLabel={purpose.kind === 'edit' ? 'Save changes' : 'Create bot'}
          blocked={blocked}
          saveNote={saveNote}
          onSubmit={onSubmit}
          {...(purpose.kind === 'new' && !prefillKey ? { suggest } : {})}
        />
      ) : null}
    </RemotePage>
  );
}
