import { type FormEvent, useRef, useState } from 'react';
import type { ZodType } from 'zod';

/**
 * What a text input needs from the form: its value, its change handler, a ref (to focus it on an error) and a focus
 * handler (the schema starts loading as the visitor starts typing)
 */
export type FieldBinding = {
  name: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  onFocus: () => void;
  ref: (input: HTMLInputElement | null) => void;
};

/** Shown above the button when the schema's code could not be loaded (the check cannot run, nothing is sent) */
export const SCHEMA_UNAVAILABLE = "The form's code could not be loaded. Check your connection and try again.";

/**
 * The part of react-hook-form the sign-in and sign-up forms used (its defaults with zodResolver), kept in the shell
 * so the landing page does not load react-hook-form and its resolvers (~16 KB gzip) for two small forms. As before:
 * the schema is checked on submit; after a submit, a field is checked again as it changes and only its own error
 * follows; the first field in error takes the focus; `submitting` while the handler runs; the handler gets the
 * schema's output.
 *
 * The schema comes from a loader: the contracts (and zod, ~30 KB gzip) are not part of the landing page's start.
 * They load when a field is first focused, or at the latest on submit.
 *
 * @param loadSchema resolves with the schema (e.g. `() => import('@kestrel/contracts').then((c) => c.X)`)
 * @param prepare turns the typed texts into the schema's input (e.g. an empty optional field left out)
 */
export function useSchemaForm<Name extends string, Output>(
  loadSchema: () => Promise<ZodType<Output>>,
  initial: Record<Name, string>,
  prepare: (values: Record<Name, string>) => unknown = (values) => values,
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Name, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const inputs = useRef(new Map<Name, HTMLInputElement>());
  const schema = useRef<ZodType<Output> | null>(null);
  const loading = useRef<Promise<ZodType<Output> | null> | null>(null);
  const names = Object.keys(initial) as Name[];

  /** The schema, loaded once; null when its code could not be loaded (the next call tries again) */
  function ensureSchema(): Promise<ZodType<Output> | null> {
    if (schema.current) return Promise.resolve(schema.current);
    loading.current ??= loadSchema().then(
      (loaded) => (schema.current = loaded),
      () => {
        loading.current = null;
        return null;
      },
    );
    return loading.current;
  }

  /** The schema's output, or the first message of each field in error */
  function check(
    schema: ZodType<Output>,
    current: Record<Name, string>,
  ): { data?: Output; errors: Partial<Record<Name, string>> } {
    const parsed = schema.safeParse(prepare(current));
    if (parsed.success) return { data: parsed.data, errors: {} };
    const found: Partial<Record<Name, string>> = {};
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '') as Name;
      found[name] ??= issue.message;
    }
    return { errors: found };
  }

  function field(name: Name): FieldBinding {
    return {
      name,
      value: values[name],
      onChange: (event) => {
        const next = { ...values, [name]: event.target.value };
        setValues(next);
        // After a submit the schema is loaded (the submit waited for it)
        if (!submitted || !schema.current) return;
        const message = check(schema.current, next).errors[name];
        setErrors((current) => ({ ...current, [name]: message }));
      },
      onFocus: () => void ensureSchema(),
      ref: (input) => {
        if (input) inputs.current.set(name, input);
        else inputs.current.delete(name);
      },
    };
  }

  function handleSubmit(onValid: (data: Output) => Promise<void>) {
    return async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const loaded = await ensureSchema();
      setFormError(loaded ? null : SCHEMA_UNAVAILABLE);
      if (!loaded) return;
      setSubmitted(true);
      const result = check(loaded, values);
      setErrors(result.errors);
      if (result.data === undefined) {
        const first = names.find((name) => result.errors[name] !== undefined);
        if (first) inputs.current.get(first)?.focus();
        return;
      }
      setSubmitting(true);
      try {
        await onValid(result.data);
      } finally {
        setSubmitting(false);
      }
    };
  }

  return { field, errors, formError, submitting, handleSubmit };
}
