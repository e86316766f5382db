import type * as React from 'react';
import {
  type ControllerRenderProps,
  type FieldPath,
  type FieldValues,
  FormProvider,
  get,
  type SubmitHandler,
  type UseFormReturn,
  useController,
  useFormContext,
  useFormState,
} from 'react-hook-form';
import { cn } from '../lib/cn';
import { Field, type FieldControlProps, type FieldProps } from './field';
import { Input } from './input';

export type FormProps<TValues extends FieldValues, TContext, TParsed extends FieldValues> = Omit<
  React.ComponentProps<'form'>,
  'onSubmit'
> & {
  /** `useForm(...)`'s return, usually with `resolver: zodResolver(schema)` so the contract's schema is the rule */
  form: UseFormReturn<TValues, TContext, TParsed>;
  /** Called with the resolver's output once every field is valid */
  onSubmit: SubmitHandler<TParsed>;
};

/**
 * A `<form>` over react-hook-form: its fields (`FormField`) find the form through context, and submitting runs the
 * resolver first. `noValidate`: the schema's messages are shown, not the browser's bubbles.
 */
export function Form<TValues extends FieldValues, TContext, TParsed extends FieldValues>({
  form,
  onSubmit,
  className,
  children,
  ...props
}: FormProps<TValues, TContext, TParsed>) {
  return (
    <FormProvider {...form}>
      <form
        data-slot="form"
        noValidate
        onSubmit={form.handleSubmit(onSubmit)}
        className={cn('ui:flex ui:flex-col ui:gap-4', className)}
        {...props}
      >
        {children}
      </form>
    </FormProvider>
  );
}

/** What a bound field's control receives: the label/hint/error wiring plus react-hook-form's value and handlers */
export type FormFieldControl<
  TValues extends FieldValues,
  TName extends FieldPath<TValues>,
> = FieldControlProps & ControllerRenderProps<TValues, TName>;

export type FormFieldProps<TValues extends FieldValues, TName extends FieldPath<TValues>> = Omit<
  FieldProps,
  'error' | 'children'
> & {
  name: TName;
  /** The control: spread the given props onto any input (`<Input {...props} />`, a `NativeSelect`, a custom one) */
  children: (control: FormFieldControl<TValues, TName>) => React.ReactNode;
};

/**
 * One field of the surrounding `Form`, bound by `name`: the value, the handlers and the field's error message come
 * from react-hook-form; label, hint, `aria-invalid` and `aria-describedby` from `Field`, so every form reads alike
 */
export function FormField<TValues extends FieldValues, TName extends FieldPath<TValues>>({
  name,
  children,
  ...field
}: FormFieldProps<TValues, TName>) {
  const { control } = useFormContext<TValues>();
  const { field: bound, fieldState } = useController<TValues, TName>({ name, control });
  return (
    <Field {...field} error={fieldState.error?.message}>
      {(wiring) => children({ ...bound, ...wiring })}
    </Field>
  );
}

export type FormMessageProps = React.ComponentProps<'p'> & {
  /** Whose error to show; by default the form's own (`setError('root', …)`, e.g. the server's answer) */
  name?: string;
};

/** An error that belongs to no single field (the server refused the form), announced as it appears */
export function FormMessage({ name = 'root', className, children, ...props }: FormMessageProps) {
  const { control } = useFormContext();
  const { errors } = useFormState({ control });
  const error = get(errors, name) as { message?: unknown } | undefined;
  const message = typeof error?.message === 'string' && error.message ? error.message : children;
  if (!message) return null;
  return (
    <p
      data-slot="form-message"
      role="alert"
      className={cn('ui:text-sm ui:text-destructive', className)}
      {...props}
    >
      {message}
    </p>
  );
}

/** One field of `OptionalNumberFields` */
export interface OptionalNumberField<TValues extends FieldValues> {
  name: FieldPath<TValues>;
  label: string;
  hint?: string;
}

export type OptionalNumberFieldsProps<TValues extends FieldValues> = Omit<
  React.ComponentProps<'div'>,
  'children'
> & {
  fields: readonly OptionalNumberField<TValues>[];
  /** What an empty field means (default "No limit") */
  placeholder?: string;
};

/**
 * Number fields where empty is a value of its own (no limit): a grid of decimal inputs of the surrounding `Form`,
 * each empty field showing what empty means. The account limits and the defaults of new bots are edited this way;
 * the schema behind the form turns "" into null
 */
export function OptionalNumberFields<TValues extends FieldValues>({
  fields,
  placeholder = 'No limit',
  className,
  ...props
}: OptionalNumberFieldsProps<TValues>) {
  return (
    <div data-slot="optional-number-fields" className={cn('ui:grid ui:gap-4', className)} {...props}>
      {fields.map((f) => (
        <FormField<TValues, typeof f.name> key={f.name} name={f.name} label={f.label} hint={f.hint}>
          {(control) => (
            <Input
              {...control}
              value={control.value ?? ''}
              inputMode="decimal"
              autoComplete="off"
              placeholder={placeholder}
            />
          )}
        </FormField>
      ))}
    </div>
  );
}
