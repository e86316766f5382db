import type { KlineInterval } from '@kestrel/contracts';
import type { BacktestStrategyInfo } from '@kestrel/contracts/backtest';
import { Field, type FieldProps, Input, NativeSelect } from '@kestrel/ui';
import type { ComponentProps, ReactNode } from 'react';
import { type FieldError, useFormContext, useFormState } from 'react-hook-form';

/**
 * How the bots forms use `@kestrel/ui`'s Field: they validate as focus leaves a field, so an error is not an alert
 * (it would talk over the next field's label; it is read with its own field), and in their grids the error takes the
 * hint's line.
 */
export const denseField = {
  announceError: false,
  errorReplacesHint: true,
} as const satisfies Partial<FieldProps>;

/** A field's message as react-hook-form holds it (a rule's message, or nothing) */
export function fieldMessage(error: FieldError | undefined): string | undefined {
  return typeof error?.message === 'string' ? error.message : undefined;
}

/** A number field for money, fees, rates and limits: decimal keypad on phones, aligned monospace figures */
export function DecimalInput(props: ComponentProps<typeof Input>) {
  return (
    <Input type="number" inputMode="decimal" step="any" className="bt:font-mono bt:tabular-nums" {...props} />
  );
}

/** The strategies to choose from, by name, as a select's options */
export function StrategyOptions({ strategies }: { strategies: readonly BacktestStrategyInfo[] }) {
  return strategies.map((s) => (
    <option key={s.id} value={s.id}>
      {s.name}
    </option>
  ));
}

/** Kline intervals as a select's options, as the exchange names them */
export function IntervalOptions({ intervals }: { intervals: readonly KlineInterval[] }) {
  return intervals.map((interval) => (
    <option key={interval} value={interval}>
      {interval}
    </option>
  ));
}

/** The chosen strategy's own parameter fields, grouped under its name for screen readers */
export function ParamsFieldset({
  strategy,
  children,
}: {
  strategy: BacktestStrategyInfo;
  children: ReactNode;
}) {
  return (
    <fieldset className="bt:min-w-0">
      <legend className="bt:sr-only">{strategy.name} parameters</legend>
      {children}
    </fieldset>
  );
}

/** The server's refusal of a whole form, under its fields */
export function FormRefusal({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="bt:rounded-md bt:border bt:border-destructive bt:px-3 bt:py-2 bt:text-sm bt:text-destructive"
    >
      {message}
    </p>
  );
}

/**
 * The market's symbol in a react-hook-form form (under `symbol`), with its rule's message; written as the exchange
 * writes it: capitals, monospace, no autocorrection
 */
export function SymbolField({ hint }: { hint?: string }) {
  const { register } = useFormContext<{ symbol: string }>();
  const { errors } = useFormState<{ symbol: string }>({ name: 'symbol' });
  return (
    <Field {...denseField} label="Symbol" hint={hint} error={fieldMessage(errors.symbol)}>
      {(control) => (
        <Input
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          className="bt:font-mono bt:uppercase"
          {...control}
          {...register('symbol')}
        />
      )}
    </Field>
  );
}

/** The bars' interval in a react-hook-form form (under `interval`), from the intervals the form offers */
export function IntervalField({ hint, intervals }: { hint?: string; intervals: readonly KlineInterval[] }) {
  const { register, getValues } = useFormContext<{ interval: KlineInterval }>();
  const { errors } = useFormState<{ interval: KlineInterval }>({ name: 'interval' });
  return (
    <Field {...denseField} label="Interval" hint={hint} error={fieldMessage(errors.interval)}>
      {(control) => (
        <NativeSelect defaultValue={getValues('interval')} {...control} {...register('interval')}>
          <IntervalOptions intervals={intervals} />
        </NativeSelect>
      )}
    </Field>
  );
}
