import { Field, Input, NativeSelect, Textarea } from '@kestrel/ui';
import { type FieldErrors, useFormContext } from 'react-hook-form';
import { denseField } from '../../../components/form-controls';
import type { ParamField } from '../lib/params-schema';

type ParamsForm = { params: Record<string, unknown> };

function errorOf(errors: FieldErrors<ParamsForm>, key: string): string | undefined {
  const entry = (errors.params as Record<string, { message?: unknown } | undefined> | undefined)?.[key];
  return typeof entry?.message === 'string' ? entry.message : undefined;
}

function rangeHint(field: ParamField): string | undefined {
  if (field.kind !== 'integer' && field.kind !== 'number') return field.description;
  const unit = field.percent ? ' %' : '';
  const range =
    field.min !== undefined && field.max !== undefined
      ? `${field.min} to ${field.max}${unit}`
      : field.min !== undefined
        ? `from ${field.min}${unit}`
        : field.max !== undefined
          ? `up to ${field.max}${unit}`
          : '';
  return [field.description, range].filter(Boolean).join(' · ') || undefined;
}

/**
 * A strategy's parameters, rendered from its JSON schema, inside a react-hook-form form whose values hold them
 * under `params` (the form's resolver validates them with the engine's schema)
 */
export function ParamsFields({ fields }: { fields: readonly ParamField[] }) {
  const { register, formState, getValues, trigger } = useFormContext<ParamsForm>();
  // A rule between two parameters ("lower must be below upper") sits on one of them: any change checks them all
  // again while one is in error, so an error fixed from the other field clears
  const recheck = {
    onChange: () => {
      if (formState.errors.params) void trigger('params');
    },
  };
  if (fields.length === 0) return <p className="bt:text-sm bt:text-muted-foreground">No parameters.</p>;
  return (
    <div className="bt:grid bt:grid-cols-1 bt:gap-4 bt:sm:grid-cols-2">
      {fields.map((field) => {
        const name = `params.${field.key}` as const;
        const error = errorOf(formState.errors, field.key);
        if (field.kind === 'boolean') {
          return (
            <label key={field.key} className="bt:flex bt:items-center bt:gap-2 bt:text-sm bt:font-medium">
              <input type="checkbox" className="bt:size-4" {...register(name, recheck)} />
              {field.label}
            </label>
          );
        }
        return (
          <Field
            {...denseField}
            key={field.key}
            label={field.label}
            hint={rangeHint(field)}
            error={error}
            className={field.kind === 'json' ? 'bt:sm:col-span-2' : undefined}
          >
            {(control) => {
              if (field.kind === 'enum') {
                return (
                  // defaultValue: the DOM shows the form's value from the first paint, whatever the option order
                  <NativeSelect
                    defaultValue={String(getValues(name) ?? '')}
                    {...control}
                    {...register(name, recheck)}
                  >
                    {field.options.map((option) => (
                      <option key={option} value={option}>
                        {option}
                      </option>
                    ))}
                  </NativeSelect>
                );
              }
              if (field.kind === 'json') {
                return (
                  <Textarea
                    spellCheck={false}
                    className="bt:font-mono bt:text-xs"
                    {...control}
                    {...register(name, recheck)}
                  />
                );
              }
              return (
                <Input
                  type="number"
                  inputMode="decimal"
                  step={field.kind === 'integer' ? 1 : 'any'}
                  className="bt:font-mono bt:tabular-nums"
                  {...control}
                  {...register(name, { valueAsNumber: true, ...recheck })}
                />
              );
            }}
          </Field>
        );
      })}
    </div>
  );
}
