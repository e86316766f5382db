import { zodResolver } from '@hookform/resolvers/zod';
import { KLINE_INTERVALS } from '@kestrel/contracts';
import type { BacktestStrategyInfo } from '@kestrel/contracts/backtest';
import type { BotSuggestion, CreateBotRequestInput } from '@kestrel/contracts/bots';
import { BOT_MAX_BUDGET, BOT_MIN_BUDGET } from '@kestrel/contracts/bots';
import { useTradingEnvironment } from '@kestrel/shared-runtime/react';
import { Button, Card, CardContent, cn, Field, formatUsdt, Input } from '@kestrel/ui';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type FieldError, type FieldPath, FormProvider, useForm, useWatch } from 'react-hook-form';
import {
  DecimalInput,
  denseField,
  FormRefusal,
  fieldMessage,
  IntervalField,
  ParamsFieldset,
  SymbolField,
} from '../../../components/form-controls';
import type { ParamsValidator } from '../../../lib/params-validator';
import { liveAccountWords } from '../../bots/lib/bot-words';
import { describeParams } from '../../strategy-params/lib/params-schema';
import {
  BOT_OWNED_PARAMS,
  type BotFormOutput,
  type BotFormValues,
  botFormSchema,
  botParams,
  SIGNALS_LIVE_ONLY,
  STEPS,
  type StepId,
  serverRefusal,
  toCreateRequest,
} from '../lib/bot-form';

export interface BotFormSubmit {
  values: BotFormOutput;
  /** The parameters as the server takes them (decoded, the bot's own leverage in) */
  request: CreateBotRequestInput;
}

export interface BotFormProps {
  /** "New bot", "Edit Grid BTC": the form's accessible name */
  label: string;
  strategies: readonly BacktestStrategyInfo[];
  initialValues: BotFormValues;
  /** The strategy's parameter fields (rendered inside this form's context, under `params`) */
  renderParams: (strategy: BacktestStrategyInfo) => ReactNode;
  /** The strategy's defaults as form values */
  paramsToForm: (strategyId: string) => Record<string, unknown>;
  validateParams: ParamsValidator;
  /** A quick backtest of the bot as configured, shown on the review step */
  renderPreview: (request: CreateBotRequestInput) => ReactNode;
  /**
   * Under the parameters, as they are typed: what the bot would place with them (its orders, margin, a chart). Given
   * the request once the parameters pass their checks, `PLAN_DEBOUNCE_MS` after the last change
   */
  renderPlan?: (request: CreateBotRequestInput) => ReactNode;
  /** null while the connections load; live mode needs an exchange */
  exchangeConnected: boolean | null;
  /** The button that connects one (the exchange-connect remote's modal) */
  connectAction: ReactNode;
  submitLabel: string;
  /** Why the form cannot be saved now (a bot starting or stopping), shown on the review step; null when it can */
  blocked?: string | null;
  /** What saving does beyond saving (a running bot restarts), said on the review step above the button */
  saveNote?: string | null;
  /** Saves; a rejection's message is the server's refusal, shown under its field when it names one */
  onSubmit: (submit: BotFormSubmit) => Promise<void>;
  /**
   * A new bot only: starting values from the market for the strategy, symbol, leverage and budget chosen so far,
   * its parameters as form values. Applied when the parameters step opens, unless the user changed a parameter
   */
  suggest?: (
    ask: { strategy: string; symbol: string; leverage: number; budget: number },
    signal: AbortSignal,
  ) => Promise<BotSuggestion & { formParams: Record<string, unknown> }>;
}

/** How long the parameters rest before their orders are drawn again (each draw is a request to the server) */
export const PLAN_DEBOUNCE_MS = 600;

/** What the parameters step says of the market values: reading, applied (and what was raised), or unread */
type MarketValues =
  | { state: 'reading'; symbol: string }
  | { state: 'applied'; suggestion: BotSuggestion; kept: boolean }
  | { state: 'failed'; message: string };

/** The market values' note above the parameters: where they come from, or why the defaults stand */
function MarketNote({ market }: { market: MarketValues }) {
  const text =
    market.state === 'reading'
      ? `Reading ${market.symbol}'s price…`
      : market.state === 'failed'
        ? `The market could not be read (${market.message}): the strategy's defaults stand, and the exchange's rules are checked when you save.`
        : market.kept
          ? `${market.suggestion.basis}. Your own values are kept.`
          : `Set from the market: ${market.suggestion.basis}.`;
  return (
    <div
      role="note"
      aria-label="Values from the market"
      aria-live="polite"
      className="bt:rounded-md bt:border bt:border-border bt:bg-muted/40 bt:p-3 bt:text-sm"
    >
      <p>{text}</p>
      {market.state === 'applied' && !market.kept && market.suggestion.adjusted.length > 0 && (
        <ul className="bt:mt-1 bt:list-disc bt:pl-5 bt:text-muted-foreground">
          {market.suggestion.adjusted.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function errorAt(errors: unknown, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split('.')) {
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }
  return fieldMessage(node as FieldError | undefined);
}

/** A parameter's value on the review step as its field shows it (a list of rules as its count) */
function paramWords(value: unknown): string {
  if (typeof value !== 'string') return String(value);
  try {
    const parsed: unknown = JSON.parse(value);
    if (Array.isArray(parsed)) return `${parsed.length} item${parsed.length === 1 ? '' : 's'}`;
  } catch {
    // Not JSON: the text as typed
  }
  return value;
}

function Review({ values, strategy }: { values: BotFormOutput; strategy: BacktestStrategyInfo | undefined }) {
  const limit = (v: number | null, unit: string) => (v === null ? 'none' : `${v} ${unit}`);
  // Every parameter in the words of its field, as typed (percent fields in percent); the bot owns its leverage
  const params: [string, string][] = strategy
    ? describeParams(strategy.paramsJsonSchema)
        .filter((f) => !(BOT_OWNED_PARAMS as readonly string[]).includes(f.key))
        .map((f) => [f.label, paramWords(values.params[f.key])])
    : [];
  const rows: [string, string][] = [
    ['Name', values.name],
    ['Strategy', strategy?.name ?? values.strategy],
    ...params,
    ['Market', `${values.symbol} · ${values.interval} bars · ${values.leverage}× leverage`],
    ['Budget', `${formatUsdt(values.budget)} USDT`],
    ['Max notional', limit(values.riskLimits.maxNotional, 'USDT')],
    ['Daily loss limit', limit(values.riskLimits.dailyLossLimit, 'USDT')],
    ['Max drawdown', limit(values.riskLimits.maxDrawdownPercent, '%')],
    ['Mode', values.mode === 'live' ? 'Live: real orders' : 'Paper: simulated orders on live prices'],
  ];
  return (
    <dl
      aria-label="Your bot"
      className="bt:grid bt:grid-cols-1 bt:gap-x-6 bt:gap-y-2 bt:text-sm bt:sm:grid-cols-[auto_1fr]"
    >
      {rows.map(([term, value]) => (
        <div key={term} className="bt:contents">
          <dt className="bt:font-medium bt:text-muted-foreground">{term}</dt>
          <dd className="bt:min-w-0 bt:break-words">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A bot, step by step: strategy → market → parameters → budget and risk → mode → review. Each step is checked
 * (with the contract's and the strategy's own rules) before the next opens; the review shows everything and a quick
 * backtest before saving. A server refusal goes back to the step of the field it names.
 */
export function BotForm({
  label,
  strategies,
  initialValues,
  renderParams,
  paramsToForm,
  validateParams,
  renderPreview,
  renderPlan,
  exchangeConnected,
  connectAction,
  submitLabel,
  blocked = null,
  saveNote = null,
  onSubmit,
  suggest,
}: BotFormProps) {
  const schema = useMemo(
    () => botFormSchema(validateParams, (id) => strategies.find((s) => s.id === id)?.takesSignals ?? false),
    [validateParams, strategies],
  );
  const form = useForm<BotFormValues, unknown, BotFormOutput>({
    resolver: zodResolver(schema) as never,
    defaultValues: initialValues,
    mode: 'onTouched',
  });
  const { register, formState, watch, setValue, clearErrors, getValues, trigger, setError } = form;
  const { errors } = formState;
  const [step, setStep] = useState<StepId>('strategy');
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusPending = useRef(false);
  const index = STEPS.findIndex((s) => s.id === step);
  const strategyId = watch('strategy');
  const mode = watch('mode');
  const strategy = strategies.find((s) => s.id === strategyId);
  // Its orders come from the alerts its webhook receives, and only a live bot takes them
  const signals = strategy?.takesSignals === true;
  // A new bot is made where the trader is now: only mainnet is real money
  const liveAccount = liveAccountWords(useTradingEnvironment().target);
  const [market, setMarket] = useState<MarketValues | null>(null);
  // The strategy, symbol and leverage the market values were drawn for: drawn again only when one changes
  const drawnFor = useRef('');

  useEffect(() => {
    if (step !== 'params' || !suggest || !strategyId) return;
    const { symbol, leverage, budget } = getValues();
    const key = `${strategyId}|${symbol}|${leverage}`;
    if (drawnFor.current === key) return;
    drawnFor.current = key;
    const abort = new AbortController();
    let settled = false;
    setMarket({ state: 'reading', symbol });
    suggest({ strategy: strategyId, symbol, leverage, budget: Number(budget) || 0 }, abort.signal).then(
      (suggestion) => {
        if (abort.signal.aborted) return;
        settled = true;
        // A parameter the user typed is theirs: the market values do not overwrite it
        const kept = form.getFieldState('params').isDirty;
        if (!kept) {
          setValue('params', suggestion.formParams);
          setValue('budget', suggestion.budget);
          clearErrors('params');
        }
        setMarket({ state: 'applied', suggestion, kept });
      },
      (err: unknown) => {
        if (abort.signal.aborted) return;
        settled = true;
        drawnFor.current = '';
        setMarket({ state: 'failed', message: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => {
      abort.abort();
      // Left before the values came: drawn again when the step opens again, never stuck on "reading"
      if (!settled) {
        drawnFor.current = '';
        setMarket(null);
      }
    };
  }, [step, strategyId, suggest, getValues, setValue, clearErrors, form]);

  useEffect(() => {
    // The step's heading takes focus after a step change (not on the first paint), so a screen reader follows
    if (!focusPending.current) return;
    focusPending.current = false;
    headingRef.current?.focus();
  });
  const goTo = (next: StepId) => {
    focusPending.current = true;
    setStep(next);
  };

  const next = async () => {
    const fields = STEPS[index]?.fields ?? [];
    const ok = await trigger(fields as FieldPath<BotFormValues>[]);
    if (ok) setServerError(null);
    if (ok) goTo(STEPS[index + 1]?.id ?? 'review');
  };

  /** Values the schema passed, as a request; null while the strategy's own check refuses its parameters */
  const requestFrom = useCallback(
    (values: BotFormOutput): CreateBotRequestInput | null => {
      const chosen = strategies.find((s) => s.id === values.strategy);
      const parsed = validateParams(values.strategy, values.params);
      if (!chosen || !parsed.success) return null;
      return toCreateRequest(values, botParams(parsed.params, chosen.defaults, values.leverage));
    },
    [strategies, validateParams],
  );
  /**
   * The form's values as a request for the plan, parsed as the resolver does; null while any of them fails its check.
   * The live confirmation is asked on its own step, after the plan: a live bot's plan is drawn before it is ticked
   */
  const requestOf = useCallback(
    (raw: BotFormValues): CreateBotRequestInput | null => {
      const values = schema.safeParse({ ...raw, confirmLive: true });
      return values.success ? requestFrom(values.data) : null;
    },
    [schema, requestFrom],
  );
  // The values on the review step (the step is only reached when they pass)
  const reviewed = step === 'review' ? schema.safeParse(getValues()) : null;
  const reviewedRequest = reviewed?.success ? requestFrom(reviewed.data) : null;

  // The parameters as typed, drawn again a moment after the last change (each draw asks the server)
  const typedParams = useWatch({ control: form.control, name: 'params' });
  const [planRequest, setPlanRequest] = useState<CreateBotRequestInput | null>(null);
  const drawsPlan = step === 'params' && renderPlan !== undefined && market?.state !== 'reading';
  useEffect(() => {
    if (!drawsPlan) return;
    const timer = setTimeout(
      () => setPlanRequest(requestOf({ ...getValues(), params: typedParams })),
      PLAN_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [drawsPlan, typedParams, requestOf, getValues]);

  const submit = form.handleSubmit(async (values) => {
    const request = requestFrom(values);
    if (!request) return;
    setSaving(true);
    setServerError(null);
    try {
      await onSubmit({ values, request });
    } catch (failure) {
      const refusal = serverRefusal(
        failure instanceof Error ? failure.message : String(failure),
        Object.keys(values.params),
      );
      if (refusal.field) {
        setError(refusal.field as FieldPath<BotFormValues>, { type: 'server', message: refusal.text });
      } else {
        setServerError(refusal.text);
      }
      goTo(refusal.step);
    } finally {
      setSaving(false);
    }
  });

  const current = STEPS[index];
  return (
    <Card>
      <CardContent>
        <FormProvider {...form}>
          <form
            onSubmit={(event) => {
              // Enter in a field moves to the next step; only the review step saves
              if (step !== 'review') {
                event.preventDefault();
                void next();
                return;
              }
              void submit(event);
            }}
            noValidate
            aria-label={label}
            className="bt:flex bt:flex-col bt:gap-6"
          >
            <nav aria-label="Steps">
              <ol className="bt:flex bt:flex-wrap bt:gap-2 bt:text-xs">
                {STEPS.map((s, i) => (
                  <li key={s.id}>
                    <button
                      type="button"
                      disabled={i > index}
                      aria-current={i === index ? 'step' : undefined}
                      onClick={() => goTo(s.id)}
                      className={cn(
                        'bt:rounded-full bt:border bt:px-3 bt:py-1 bt:font-medium',
                        i === index
                          ? 'bt:border-primary bt:bg-primary bt:text-primary-foreground'
                          : i < index
                            ? 'bt:border-border bt:hover:bg-accent'
                            : 'bt:border-border bt:text-muted-foreground bt:opacity-70',
                      )}
                    >
                      {i + 1}. {s.title}
                    </button>
                  </li>
                ))}
              </ol>
            </nav>

            <h2 ref={headingRef} tabIndex={-1} className="bt:text-lg bt:font-semibold bt:focus:outline-none">
              {current?.title}
            </h2>

            {step === 'strategy' && (
              <div className="bt:flex bt:flex-col bt:gap-4">
                <fieldset className="bt:flex bt:min-w-0 bt:flex-col bt:gap-2">
                  <legend className="bt:mb-2 bt:text-sm bt:font-medium">Strategy</legend>
                  <div className="bt:grid bt:grid-cols-1 bt:gap-2 bt:sm:grid-cols-2">
                    {strategies.map((s) => (
                      <label
                        key={s.id}
                        className={cn(
                          'bt:flex bt:cursor-pointer bt:gap-3 bt:rounded-lg bt:border bt:p-3 bt:text-sm',
                          s.id === strategyId ? 'bt:border-primary bt:bg-accent' : 'bt:border-border',
                        )}
                      >
                        <input
                          type="radio"
                          value={s.id}
                          className="bt:mt-0.5 bt:size-4 bt:shrink-0"
                          {...register('strategy', {
                            onChange: () => {
                              // Live is the only mode of a strategy that trades on signals; leaving one goes back
                              // to paper, whose confirmation is not asked
                              if (s.takesSignals) setValue('mode', 'live');
                              else if (signals) {
                                setValue('mode', 'paper');
                                setValue('confirmLive', false);
                              }
                              setValue('params', paramsToForm(s.id));
                              const lev = s.defaults.leverage;
                              if (typeof lev === 'number') setValue('leverage', lev);
                              clearErrors('params');
                            },
                          })}
                        />
                        <span className="bt:flex bt:min-w-0 bt:flex-col bt:gap-0.5">
                          <span className="bt:font-medium">{s.name}</span>
                          <span className="bt:text-muted-foreground">{s.description}</span>
                        </span>
                      </label>
                    ))}
                  </div>
                  {fieldMessage(errors.strategy) && (
                    <p className="bt:text-xs bt:text-destructive">{fieldMessage(errors.strategy)}</p>
                  )}
                </fieldset>
                {signals && <SignalsNote />}
                <Field
                  {...denseField}
                  label="Name"
                  hint="How the bot is listed"
                  error={fieldMessage(errors.name)}
                >
                  {(control) => <Input autoComplete="off" {...control} {...register('name')} />}
                </Field>
              </div>
            )}

            {step === 'market' && (
              <div className="bt:grid bt:grid-cols-1 bt:gap-4 bt:sm:grid-cols-3">
                <SymbolField hint="A USDⓈ-M perpetual" />
                <IntervalField hint="The bars it decides on" intervals={KLINE_INTERVALS} />
                <Field
                  {...denseField}
                  label="Leverage"
                  hint="1 to 125×"
                  error={fieldMessage(errors.leverage)}
                >
                  {(control) => (
                    <DecimalInput step={1} {...control} {...register('leverage', { valueAsNumber: true })} />
                  )}
                </Field>
              </div>
            )}

            {step === 'params' &&
              (strategy ? (
                <div className="bt:flex bt:flex-col bt:gap-4">
                  {market && <MarketNote market={market} />}
                  {market?.state === 'reading' ? (
                    <p className="bt:text-sm bt:text-muted-foreground">
                      Drawing the parameters from the market…
                    </p>
                  ) : (
                    <>
                      <ParamsFieldset strategy={strategy}>{renderParams(strategy)}</ParamsFieldset>
                      {renderPlan && planRequest && renderPlan(planRequest)}
                    </>
                  )}
                </div>
              ) : (
                <p className="bt:text-sm bt:text-muted-foreground">Choose a strategy first.</p>
              ))}

            {step === 'budget' && (
              <div className="bt:flex bt:flex-col bt:gap-4">
                <Field
                  {...denseField}
                  label="Budget (USDT)"
                  hint={`Margin the bot may commit, ${BOT_MIN_BUDGET} to ${BOT_MAX_BUDGET.toLocaleString('en-US')}`}
                  error={fieldMessage(errors.budget)}
                  className="bt:sm:max-w-xs"
                >
                  {(control) => (
                    <DecimalInput {...control} {...register('budget', { valueAsNumber: true })} />
                  )}
                </Field>
                <fieldset className="bt:flex bt:min-w-0 bt:flex-col bt:gap-2">
                  <legend className="bt:mb-2 bt:text-sm bt:font-medium">
                    Its own limits, checked before every order (empty: none beyond your account's)
                  </legend>
                  <div className="bt:grid bt:grid-cols-1 bt:gap-4 bt:sm:grid-cols-3">
                    <Field
                      {...denseField}
                      label="Max notional (USDT)"
                      hint="Largest position after an order"
                      error={errorAt(errors, 'riskLimits.maxNotional')}
                    >
                      {(control) => (
                        <DecimalInput
                          {...control}
                          {...register('riskLimits.maxNotional', { setValueAs: emptyToNull })}
                        />
                      )}
                    </Field>
                    <Field
                      {...denseField}
                      label="Daily loss limit (USDT)"
                      hint="Stops the bot when today's loss reaches it"
                      error={errorAt(errors, 'riskLimits.dailyLossLimit')}
                    >
                      {(control) => (
                        <DecimalInput
                          {...control}
                          {...register('riskLimits.dailyLossLimit', { setValueAs: emptyToNull })}
                        />
                      )}
                    </Field>
                    <Field
                      {...denseField}
                      label="Max drawdown (%)"
                      hint="Fall of its equity from the peak"
                      error={errorAt(errors, 'riskLimits.maxDrawdownPercent')}
                    >
                      {(control) => (
                        <DecimalInput
                          {...control}
                          {...register('riskLimits.maxDrawdownPercent', { setValueAs: emptyToNull })}
                        />
                      )}
                    </Field>
                  </div>
                </fieldset>
              </div>
            )}

            {step === 'mode' && (
              <div className="bt:flex bt:flex-col bt:gap-4">
                <fieldset className="bt:flex bt:min-w-0 bt:flex-col bt:gap-2">
                  <legend className="bt:mb-2 bt:text-sm bt:font-medium">How it trades</legend>
                  <div className="bt:grid bt:grid-cols-1 bt:gap-2 bt:sm:grid-cols-2">
                    <label
                      className={cn(
                        'bt:flex bt:gap-3 bt:rounded-lg bt:border bt:p-3 bt:text-sm',
                        signals ? 'bt:opacity-60' : 'bt:cursor-pointer',
                        mode === 'paper' ? 'bt:border-primary bt:bg-accent' : 'bt:border-border',
                      )}
                    >
                      <input
                        type="radio"
                        value="paper"
                        disabled={signals}
                        className="bt:mt-0.5 bt:size-4"
                        {...register('mode')}
                      />
                      <span className="bt:flex bt:flex-col bt:gap-0.5">
                        <span className="bt:font-medium">Paper</span>
                        <span className="bt:text-muted-foreground">
                          {signals
                            ? `Not for this strategy. ${SIGNALS_LIVE_ONLY}.`
                            : 'Simulated orders on live prices, with fees. No money at risk.'}
                        </span>
                      </span>
                    </label>
                    <label
                      className={cn(
                        'bt:flex bt:gap-3 bt:rounded-lg bt:border bt:p-3 bt:text-sm',
                        exchangeConnected ? 'bt:cursor-pointer' : 'bt:opacity-60',
                        mode === 'live' ? 'bt:border-destructive bt:bg-destructive/10' : 'bt:border-border',
                      )}
                    >
                      <input
                        type="radio"
                        value="live"
                        disabled={!exchangeConnected}
                        className="bt:mt-0.5 bt:size-4"
                        {...register('mode')}
                      />
                      <span className="bt:flex bt:flex-col bt:gap-0.5">
                        <span className="bt:font-medium">Live</span>
                        <span className="bt:text-muted-foreground">
                          Real orders with {liveAccount.account}: {liveAccount.money}.
                        </span>
                      </span>
                    </label>
                  </div>
                  {fieldMessage(errors.mode) && (
                    <p className="bt:text-xs bt:text-destructive">{fieldMessage(errors.mode)}</p>
                  )}
                </fieldset>
                {signals && <SignalsNote />}
                {exchangeConnected === false && (
                  <div className="bt:flex bt:flex-wrap bt:items-center bt:gap-3 bt:text-sm">
                    <p className="bt:min-w-0 bt:flex-1 bt:text-muted-foreground">
                      Live mode needs a connected exchange account.
                    </p>
                    {connectAction}
                  </div>
                )}
                {mode === 'live' && (
                  <div
                    role="alert"
                    className={cn(
                      'bt:flex bt:flex-col bt:gap-3 bt:rounded-lg bt:border bt:p-3 bt:text-sm',
                      liveAccount.real
                        ? 'bt:border-destructive bt:bg-destructive/10'
                        : 'bt:border-border bt:bg-muted/40',
                    )}
                  >
                    {liveAccount.real ? (
                      <p>
                        <strong>This bot will trade real money.</strong> Once started it places orders on your
                        Binance account {signals ? 'on every alert its webhook receives' : 'by itself'}, up to
                        its budget, and can lose all of it. Your account's risk limits and the bot's own are
                        checked before every order.
                      </p>
                    ) : (
                      <p>
                        <strong>
                          This bot will place real orders with {liveAccount.account}, with {liveAccount.money}
                          .
                        </strong>{' '}
                        Once started it places them{' '}
                        {signals ? 'on every alert its webhook receives' : 'by itself'}, up to its budget, as
                        it would on mainnet. Your account's risk limits and the bot's own are checked before
                        every order.
                      </p>
                    )}
                    <label className="bt:flex bt:items-start bt:gap-2 bt:font-medium">
                      <input
                        type="checkbox"
                        className="bt:mt-0.5 bt:size-4"
                        aria-invalid={Boolean(errors.confirmLive)}
                        // The error goes as the box is ticked, not when it loses focus: on the way to Next, that
                        // would move the button from under the pointer between press and release
                        {...register('confirmLive', { onChange: () => clearErrors('confirmLive') })}
                      />
                      I understand this bot places real orders with my Binance account
                    </label>
                    {fieldMessage(errors.confirmLive) && (
                      <p className="bt:text-xs bt:text-destructive">{fieldMessage(errors.confirmLive)}</p>
                    )}
                  </div>
                )}
              </div>
            )}

            {step === 'review' && reviewed?.success && (
              <div className="bt:flex bt:flex-col bt:gap-4">
                <Review values={reviewed.data} strategy={strategy} />
                {reviewedRequest && renderPreview(reviewedRequest)}
              </div>
            )}

            {step === 'review' && saveNote && !blocked && (
              <p
                role="note"
                aria-label="What saving does"
                className="bt:rounded-md bt:border bt:border-warning bt:bg-warning/10 bt:px-3 bt:py-2 bt:text-sm"
              >
                {saveNote}
              </p>
            )}
            {step === 'review' && blocked && (
              <p role="note" className="bt:text-sm bt:text-muted-foreground">
                {blocked}
              </p>
            )}
            <FormRefusal message={serverError} />

            <div className="bt:flex bt:flex-col-reverse bt:gap-2 bt:sm:flex-row bt:sm:justify-between">
              <Button
                type="button"
                variant="outline"
                disabled={index === 0 || saving}
                onClick={() => goTo(STEPS[index - 1]?.id ?? 'strategy')}
              >
                Back
              </Button>
              {/* Keyed apart: were the Next button's element reused as the submit button, the click on "Next: Review"
                  would submit, its activation running after the step changed in the click's own microtasks */}
              {step === 'review' ? (
                <Button key="submit" type="submit" disabled={saving || blocked !== null}>
                  {saving ? 'Saving…' : submitLabel}
                </Button>
              ) : (
                <Button key="next" type="button" onClick={() => void next()}>
                  Next: {STEPS[index + 1]?.title}
                </Button>
              )}
            </div>
          </form>
        </FormProvider>
      </CardContent>
    </Card>
  );
}

/** What a strategy that trades on signals needs besides the form: its webhook, made once the bot is saved */
function SignalsNote() {
  return (
    <p
      role="note"
      aria-label="Trades on alerts"
      className="bt:rounded-md bt:border bt:border-border bt:bg-muted/40 bt:p-3 bt:text-sm"
    >
      It trades only on the alerts posted to its webhook (a TradingView alert, say): each buy, sell or close
      is sent at once. Its webhook URL and secret are made on its card on Active bots after you save it.
    </p>
  );
}

/** An empty limit is "no limit" (null), not 0 */
function emptyToNull(value: unknown): number | null {
  if (value === '' || value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isNaN(n) ? null : n;
}
