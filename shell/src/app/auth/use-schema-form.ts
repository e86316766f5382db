import { type FormEvent, useRef, useState } from 'react';
import type { ZodType } from 'zod';

/** What a text input needs from the form: its value, its change handler and a ref (to focus it on an error) */
export type FieldBinding = {
  name: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  ref: (input: HTMLInputElement | null) => void;
};

/**
 * The part of react-hook-form the sign-in and sign-up forms used (its defaults with zodResolver), kept in the shell
 * so the landing page does not load react-hook-form and its resolvers (~16 KB gzip) for two small forms. As before:
 * the schema is checked on submit; after a submit, a field is checked again as it changes and only its own error
 * follows; the first field in error takes the focus; `submitting` while the handler runs; the handler gets the
 * schema's output.
 *
 * @param prepare turns the typed texts into the schema's input (e.g. an empty optional field left out)
 */
export function useSchemaForm<Name extends string, Output>(
  schema: ZodType<Output>,
  initial: Record<Name, string>,
  prepare: (values: Record<Name, string>) => unknown = (values) => values,
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Name, string>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const inputs = useRef(new Map<Name, HTMLInputElement>());
  const names = Object.keys(initial) as Name[];

  /** The schema's output, or the first message of each field in error */
  function check(current: Record<Name, string>): { data?: Output; errors: Partial<Record<Name, string>> } {
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
        if (!submitted) return;
        const message = check(next).errors[name];
        setErrors((current) => ({ ...current, [name]: message }));
      },
      ref: (input) => {
        if (input) inputs.current.set(name, input);
        else inputs.current.delete(name);
      },
    };
  }

  function handleSubmit(onValid: (data: Output) => Promise<void>) {
    return async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      setSubmitted(true);
      const result = check(values);
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

  return { field, errors, submitting, handleSubmit };
}
