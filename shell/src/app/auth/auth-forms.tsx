import { zodResolver } from '@hookform/resolvers/zod';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type SigninRequest,
  SigninRequestSchema,
  type SignupRequest,
  SignupRequestSchema,
} from '@kestrel/contracts';
import { getKestrelRuntime } from '@kestrel/shared-runtime';
import { Button, Input } from '@kestrel/ui';
import { type ReactNode, useId, useState } from 'react';
import { type FieldError, useForm } from 'react-hook-form';

type FieldProps = {
  label: string;
  hint?: string;
  error?: FieldError | undefined;
  children: (ids: FieldIds) => ReactNode;
};
type FieldIds = { id: string; describedBy: string | undefined; invalid: boolean };

/** Label, input, rule and error wired for screen readers (aria-describedby, aria-invalid, live error) */
function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="sh:flex sh:flex-col sh:gap-1.5">
      <label htmlFor={id} className="sh:text-sm sh:font-medium">
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {hint && (
        <p id={hintId} className="sh:text-xs sh:text-muted-foreground">
          {hint}
        </p>
      )}
      {error?.message && (
        <p id={errorId} role="alert" className="sh:text-xs sh:text-destructive">
          {error.message}
        </p>
      )}
    </div>
  );
}

function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="sh:rounded-md sh:border sh:border-destructive sh:px-3 sh:py-2 sh:text-sm sh:text-destructive"
    >
      {message}
    </p>
  );
}

/** Sign-in: email and password, sent as the spec says; the server's or the spec's message on failure */
export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<SigninRequest>({
    resolver: zodResolver(SigninRequestSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    const result = await getKestrelRuntime().session.signIn(values);
    if (result.success) onSignedIn();
    else setServerError(result.error);
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Sign in" className="sh:flex sh:flex-col sh:gap-4">
      <Field label="Email" error={errors.email}>
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            type="email"
            autoComplete="email"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            {...form.register('email')}
          />
        )}
      </Field>
      <Field label="Password" error={errors.password}>
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            type="password"
            autoComplete="current-password"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            {...form.register('password')}
          />
        )}
      </Field>
      <FormError message={serverError} />
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}

/** Sign-up: name, email and password, with the password rule stated on screen */
export function SignUpForm({ onSignedUp }: { onSignedUp: () => void }) {
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<SignupRequest>({
    resolver: zodResolver(SignupRequestSchema),
    defaultValues: { email: '', password: '', name: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ name, ...rest }) => {
    setServerError(null);
    const result = await getKestrelRuntime().session.signUp(name ? { ...rest, name } : rest);
    if (result.success) onSignedUp();
    else setServerError(result.error);
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Create account" className="sh:flex sh:flex-col sh:gap-4">
      <Field label="Name" hint="Optional; shown in the top bar." error={errors.name}>
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            autoComplete="name"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            {...form.register('name', { setValueAs: (v: string) => (v.trim() === '' ? undefined : v) })}
          />
        )}
      </Field>
      <Field label="Email" error={errors.email}>
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            type="email"
            autoComplete="email"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            {...form.register('email')}
          />
        )}
      </Field>
      <Field
        label="Password"
        hint={`${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters. A long passphrase is best; no other rules.`}
        error={errors.password}
      >
        {({ id, describedBy, invalid }) => (
          <Input
            id={id}
            type="password"
            autoComplete="new-password"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            {...form.register('password')}
          />
        )}
      </Field>
      <FormError message={serverError} />
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Creating account...' : 'Create account'}
      </Button>
    </form>
  );
}
