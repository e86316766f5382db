import {
  type BacktestStrategyInfo,
  OPTIMISATION_MAX_COMBINATIONS,
  OPTIMISATION_OBJECTIVES,
  type OptimisationRequestInput,
} from '@kestrel/contracts/backtest';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Field,
  formatInteger,
  Input,
  NativeSelect,
} from '@kestrel/ui';
import { useMemo, useState } from 'react';
import { denseField, IntervalOptions, StrategyOptions } from '../../../../components/form-controls';
import { describeParams, paramLabel } from '../../../strategy-params/lib/params-schema';
import { FORM_INTERVALS } from '../../lib/backtest-form';
import {
  type AxisForm,
  defaultAxes,
  defaultOptimiseValues,
  formCombinations,
  type OptimiseFormValues,
  sweepableFields,
  toOptimisationRequest,
} from '../lib/optimise-form';

export const OBJECTIVE_LABELS: Record<(typeof OPTIMISATION_OBJECTIVES)[number], string> = {
  sharpe: 'Sharpe',
  sortino: 'Sortino',
  calmar: 'Calmar',
  totalReturn: 'Total return',
  annualisedReturn: 'Annualised return',
  profitFactor: 'Profit factor',
  maxDrawdown: 'Max drawdown (lowest)',
};

interface Props {
  strategies: readonly BacktestStrategyInfo[];
  onRun: (request: OptimisationRequestInput) => void;
  running: boolean;
  serverError: string | null;
}

/** Strategy, market, range, objective, and per parameter a range with a step (or a list), with the grid's size */
export function OptimiseForm({ strategies, onRun, running, serverError }: Props) {
  const first = strategies[0];
  const fieldsOf = (s: BacktestStrategyInfo | undefined) => (s ? describeParams(s.paramsJsonSchema) : []);
  const [values, setValues] = useState<OptimiseFormValues>(() =>
    defaultOptimiseValues(first?.id ?? '', defaultAxes(fieldsOf(first), first?.defaults ?? {}), Date.now()),
  );
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([]);
  const strategy = strategies.find((s) => s.id === values.strategy);
  const fields = useMemo(() => (strategy ? describeParams(strategy.paramsJsonSchema) : []), [strategy]);
  const sweepable = sweepableFields(fields);
  const combinations = formCombinations(values, fields);
  const issue = (path: string) =>
    issues.find((i) => i.path === path || i.path.startsWith(`${path}.`))?.message;

  const set = <K extends keyof OptimiseFormValues>(key: K, value: OptimiseFormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const setAxis = (key: string, patch: Partial<AxisForm>) =>
    setValues((v) => ({ ...v, axes: { ...v.axes, [key]: { ...(v.axes[key] as AxisForm), ...patch } } }));
  const chooseStrategy = (id: string) => {
    const next = strategies.find((s) => s.id === id);
    setValues((v) => ({ ...v, strategy: id, axes: defaultAxes(fieldsOf(next), next?.defaults ?? {}) }));
    setIssues([]);
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const result = toOptimisationRequest(values, fields, strategy?.defaults ?? {}, Date.now());
    if (!result.ok) {
      setIssues(result.issues);
      return;
    }
    setIssues([]);
    onRun(result.request);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Optimise</CardTitle>
        <CardDescription>
          Backtest every combination of the parameters you sweep, then see whether the best one is more than
          luck: the deflated Sharpe ratio and the probability of backtest overfitting come first, in-sample
          figures last.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form aria-label="Optimisation" onSubmit={submit} noValidate className="bt:flex bt:flex-col bt:gap-4">
          <div className="bt:grid bt:grid-cols-1 bt:gap-3 bt:sm:grid-cols-2 bt:lg:grid-cols-3">
            <Field label="Strategy" {...denseField}>
              {(control) => (
                <NativeSelect
                  {...control}
                  value={values.strategy}
                  onChange={(e) => chooseStrategy(e.target.value)}
                >
                  <StrategyOptions strategies={strategies} />
                </NativeSelect>
              )}
            </Field>
            <Field label="Symbol" error={issue('symbol')} {...denseField}>
              {(control) => (
                <Input {...control} value={values.symbol} onChange={(e) => set('symbol', e.target.value)} />
              )}
            </Field>
            <Field label="Interval" {...denseField}>
              {(control) => (
                <NativeSelect
                  {...control}
                  value={values.interval}
                  onChange={(e) => set('interval', e.target.value as OptimiseFormValues['interval'])}
                >
                  <IntervalOptions intervals={FORM_INTERVALS} />
                </NativeSelect>
              )}
            </Field>
            <Field label="Start date" error={issue('startTime')} {...denseField}>
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  value={values.startDate}
                  onChange={(e) => set('startDate', e.target.value)}
                />
              )}
            </Field>
            <Field label="End date" error={issue('endTime')} {...denseField}>
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  value={values.endDate}
                  onChange={(e) => set('endDate', e.target.value)}
                />
              )}
            </Field>
            <Field label="Objective" hint="What picks the best combination" {...denseField}>
              {(control) => (
                <NativeSelect
                  {...control}
                  value={values.objective}
                  onChange={(e) => set('objective', e.target.value as OptimiseFormValues['objective'])}
                >
                  {OPTIMISATION_OBJECTIVES.map((o) => (
                    <option key={o} value={o}>
                      {OBJECTIVE_LABELS[o]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
          </div>

          <fieldset className="bt:flex bt:flex-col bt:gap-2">
            <legend className="bt:mb-1 bt:text-sm bt:font-medium">Parameters to sweep</legend>
            {sweepable.map((field) => {
              const axis = values.axes[field.key] as AxisForm;
              // The sweep's values are the strategy's own (fractions stay fractions): its label without " %"
              const label = paramLabel(field.key);
              return (
                <div
                  key={field.key}
                  className="bt:grid bt:grid-cols-2 bt:items-start bt:gap-2 bt:sm:grid-cols-[minmax(10rem,1fr)_repeat(3,minmax(0,1fr))]"
                >
                  <label className="bt:col-span-2 bt:flex bt:h-9 bt:items-center bt:gap-2 bt:text-sm bt:sm:col-span-1">
                    <input
                      type="checkbox"
                      checked={axis.sweep}
                      onChange={(e) => setAxis(field.key, { sweep: e.target.checked })}
                    />
                    {label}
                  </label>
                  {!axis.sweep ? null : field.kind === 'enum' ? (
                    <Field
                      label={`${label}: values`}
                      hint="Comma separated"
                      error={issue(`space.${field.key}`)}
                      className="bt:col-span-2 bt:sm:col-span-3"
                      {...denseField}
                    >
                      {(control) => (
                        <Input
                          {...control}
                          value={axis.values}
                          onChange={(e) => setAxis(field.key, { values: e.target.value })}
                        />
                      )}
                    </Field>
                  ) : (
                    (['from', 'to', 'step'] as const).map((part) => (
                      <Field
                        key={part}
                        label={`${label}: ${part}`}
                        error={issue(`space.${field.key}.${part}`)}
                        {...denseField}
                      >
                        {(control) => (
                          <Input
                            {...control}
                            inputMode="decimal"
                            value={axis[part]}
                            onChange={(e) => setAxis(field.key, { [part]: e.target.value })}
                          />
                        )}
                      </Field>
                    ))
                  )}
                </div>
              );
            })}
          </fieldset>

          <fieldset className="bt:flex bt:flex-col bt:gap-2">
            <legend className="bt:mb-1 bt:text-sm bt:font-medium">Walk-forward</legend>
            <label className="bt:flex bt:items-center bt:gap-2 bt:text-sm">
              <input
                type="checkbox"
                checked={values.walkForward.enabled}
                onChange={(e) => set('walkForward', { ...values.walkForward, enabled: e.target.checked })}
              />
              Also optimise on a train window and test the winner on the next window, moving forward
            </label>
            {values.walkForward.enabled && (
              <div className="bt:grid bt:grid-cols-1 bt:gap-3 bt:sm:grid-cols-3">
                {(
                  [
                    ['trainDays', 'Train window (days)', 'walkForward.trainMs'],
                    ['testDays', 'Test window (days)', 'walkForward.testMs'],
                    ['stepDays', 'Step (days, default: the test window)', 'walkForward.stepMs'],
                  ] as const
                ).map(([key, label, path]) => (
                  <Field key={key} label={label} error={issue(path)} {...denseField}>
                    {(control) => (
                      <Input
                        {...control}
                        inputMode="decimal"
                        value={values.walkForward[key]}
                        onChange={(e) => set('walkForward', { ...values.walkForward, [key]: e.target.value })}
                      />
                    )}
                  </Field>
                ))}
              </div>
            )}
          </fieldset>

          <div className="bt:flex bt:flex-wrap bt:items-center bt:gap-3">
            <Button type="submit" disabled={running}>
              {running ? 'Optimising…' : 'Optimise'}
            </Button>
            <output className="bt:text-sm bt:text-muted-foreground" aria-live="polite">
              {formatInteger(combinations)} combination{combinations === 1 ? '' : 's'}
              {combinations > OPTIMISATION_MAX_COMBINATIONS &&
                ` — at most ${formatInteger(OPTIMISATION_MAX_COMBINATIONS)}: sweep fewer values`}
            </output>
          </div>
          {issue('space') && !issues.some((i) => i.path.startsWith('space.')) && (
            <p role="alert" className="bt:text-sm bt:text-destructive">
              {issue('space')}
            </p>
          )}
          {serverError && (
            <p role="alert" className="bt:text-sm bt:text-destructive">
              {serverError}
            </p>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
