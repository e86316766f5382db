import { zodResolver } from '@hookform/resolvers/zod';
import type { BacktestRequestInput, BacktestStrategyInfo } from '@kestrel/contracts/backtest';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Field,
  Input,
  NativeSelect,
} from '@kestrel/ui';
import { type ReactNode, useMemo } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import {
  DecimalInput,
  denseField,
  FormRefusal,
  fieldMessage,
  IntervalField,
  ParamsFieldset,
  StrategyOptions,
  SymbolField,
} from '../../../components/form-controls';
import type { ParamsValidator } from '../../../lib/params-validator';
import {
  type BacktestFormValues,
  backtestFormSchema,
  defaultFormValues,
  FORM_INTERVALS,
  toBacktestRequest,
} from '../lib/backtest-form';

export interface BacktestFormProps {
  strategies: readonly BacktestStrategyInfo[];
  /** The strategy's parameter fields (rendered inside this form's context, under `params`) */
  renderParams: (strategy: BacktestStrategyInfo) => ReactNode;
  /** The strategy's defaults as form values */
  paramsToForm: (strategy: BacktestStrategyInfo) => Record<string, unknown>;
  validateParams: ParamsValidator;
  onRun: (request: BacktestRequestInput) => void;
  running: boolean;
  /** The server's refusal (400 `detail`), shown under the form */
  serverError: string | null;
  now?: () => number;
}

function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="bt:flex bt:min-w-0 bt:flex-col bt:gap-3">
      <legend className="bt:mb-3 bt:text-sm bt:font-semibold bt:text-muted-foreground bt:uppercase bt:tracking-wide">
        {legend}
      </legend>
      {children}
    </fieldset>
  );
}

/** Strategy, its parameters, market, range and costs; checked in the browser with the server's own rules */
export function BacktestForm({
  strategies,
  renderParams,
  paramsToForm,
  validateParams,
  onRun,
  running,
  serverError,
  now = Date.now,
}: BacktestFormProps) {
  const schema = useMemo(() => backtestFormSchema(validateParams, now), [validateParams, now]);
  const form = useForm<BacktestFormValues>({
    resolver: zodResolver(schema) as never,
    defaultValues: defaultFormValues(strategies[0], paramsToForm, now()),
    mode: 'onTouched',
  });
  const { register, formState, watch, setValue, clearErrors, getValues } = form;
  const { errors } = formState;
  const strategyId = watch('strategy');
  const strategy = strategies.find((s) => s.id === strategyId);

  const submit = form.handleSubmit((values) => {
    const parsed = validateParams(values.strategy, values.params);
    if (!parsed.success) return;
    onRun(toBacktestRequest(values, parsed.params, now()));
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>New backtest</CardTitle>
        <CardDescription>Simulated on the exchange's klines with fees, slippage and funding.</CardDescription>
      </CardHeader>
      <CardContent>
        <FormProvider {...form}>
          <form
            onSubmit={submit}
            noValidate
            aria-label="New backtest"
            className="bt:flex bt:flex-col bt:gap-6"
          >
            <Fieldset legend="Strategy">
              <Field
                {...denseField}
                label="Strategy"
                hint={strategy?.description}
                error={fieldMessage(errors.strategy)}
              >
                {(control) => (
                  <NativeSelect
                    defaultValue={getValues('strategy')}
                    {...control}
                    {...register('strategy', {
                      onChange: (event: { target: { value: string } }) => {
                        const next = strategies.find((s) => s.id === event.target.value);
                        setValue('params', next ? paramsToForm(next) : {});
                        clearErrors('params');
                      },
                    })}
                  >
                    <StrategyOptions strategies={strategies} />
                  </NativeSelect>
                )}
              </Field>
              {strategy && <ParamsFieldset strategy={strategy}>{renderParams(strategy)}</ParamsFieldset>}
            </Fieldset>

            <Fieldset legend="Market and range">
              <div className="bt:grid bt:grid-cols-1 bt:gap-4 bt:sm:grid-cols-2 bt:lg:grid-cols-4">
                <SymbolField />
                <IntervalField intervals={FORM_INTERVALS} />
                <Field
                  {...denseField}
                  label="Start date"
                  hint="UTC, from 00:00"
                  error={fieldMessage(errors.startDate)}
                >
                  {(control) => <Input type="date" {...control} {...register('startDate')} />}
                </Field>
                <Field
                  {...denseField}
                  label="End date"
                  hint="UTC, through 23:59"
                  error={fieldMessage(errors.endDate)}
                >
                  {(control) => <Input type="date" {...control} {...register('endDate')} />}
                </Field>
              </div>
            </Fieldset>

            <Fieldset legend="Account and costs">
              <div className="bt:grid bt:grid-cols-1 bt:gap-4 bt:sm:grid-cols-2 bt:lg:grid-cols-3">
                <Field
                  {...denseField}
                  label="Initial balance (USDT)"
                  error={fieldMessage(errors.costs?.initialBalance)}
                >
                  {(control) => (
                    <DecimalInput
                      {...control}
                      {...register('costs.initialBalance', { valueAsNumber: true })}
                    />
                  )}
                </Field>
                <Field {...denseField} label="Margin mode" error={fieldMessage(errors.costs?.marginMode)}>
                  {(control) => (
                    <NativeSelect
                      defaultValue={getValues('costs.marginMode')}
                      {...control}
                      {...register('costs.marginMode')}
                    >
                      <option value="cross">Cross</option>
                      <option value="isolated">Isolated</option>
                    </NativeSelect>
                  )}
                </Field>
                <Field
                  {...denseField}
                  label="Slippage (bp)"
                  hint="1 bp = 0.01 %"
                  error={fieldMessage(errors.costs?.slippageBps)}
                >
                  {(control) => (
                    <DecimalInput {...control} {...register('costs.slippageBps', { valueAsNumber: true })} />
                  )}
                </Field>
                <Field {...denseField} label="Maker fee (%)" error={fieldMessage(errors.costs?.makerFeePct)}>
                  {(control) => (
                    <DecimalInput {...control} {...register('costs.makerFeePct', { valueAsNumber: true })} />
                  )}
                </Field>
                <Field {...denseField} label="Taker fee (%)" error={fieldMessage(errors.costs?.takerFeePct)}>
                  {(control) => (
                    <DecimalInput {...control} {...register('costs.takerFeePct', { valueAsNumber: true })} />
                  )}
                </Field>
                <label className="bt:flex bt:items-center bt:gap-2 bt:self-end bt:pb-2 bt:text-sm bt:font-medium">
                  <input type="checkbox" className="bt:size-4" {...register('costs.funding')} />
                  Charge funding (the exchange's settled rates)
                </label>
              </div>
            </Fieldset>

            <FormRefusal message={serverError} />
            <div className="bt:flex bt:justify-end">
              <Button type="submit" disabled={running} className="bt:w-full bt:sm:w-auto">
                {running ? 'Running…' : 'Run backtest'}
              </Button>
            </div>
          </form>
        </FormProvider>
      </CardContent>
    </Card>
  );
}
