import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@kestrel/contracts';
import { getKestrelRuntime } from '@kestrel/shared-runtime';
import { Button, Field, Input } from '@kestrel/ui';
import { useState } from 'react';
import { useSchemaForm } from './use-schema-form';

type TextFieldProps = React.ComponentProps<'input'> & {
  label: string;
  hint?: string;
  error?: string | undefined;
};

/** A text input in ui's Field: label, stated rule and announced error, wired for screen readers */
function TextField({ label, hint, error, ...input }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <Input {...control} {...input} />}
    </Field>
  );
}

// The forms' schemas load when a field is first focused (the landing page starts without zod): see useSchemaForm
const signinSchema = () => import('@kestrel/contracts').then((c) => c.SigninRequestSchema);
const signupSchema = () => import('@kestrel/contracts').then((c) => c.SignupRequestSchema);

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
  const form = useSchemaForm(signinSchema, { email: '', password: '' });
  const { errors, submitting } = form;
  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    const result = await getKestrelRuntime().session.signIn(values);
    if (result.success) onSignedIn();
    else setServerError(result.error);
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Sign in" className="sh:flex sh:flex-col sh:gap-4">
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email}
        {...form.field('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password}
        {...form.field('password')}
      />
      <FormError message={serverError ?? form.formError} />
      <Button type="submit" disabled={submitting}>
        {submitting ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}

/** Sign-up: name, email and password, with the password rule stated on screen */
export function SignUpForm({ onSignedUp }: { onSignedUp: () => void }) {
  const [serverError, setServerError] = useState<string | null>(null);
  // An empty or blank name is no name (it is optional)
  const form = useSchemaForm(signupSchema, { name: '', email: '', password: '' }, ({ name, ...rest }) =>
    name.trim() === '' ? rest : { ...rest, name },
  );
  const { errors, submitting } = form;
  const submit = form.handleSubmit(async ({ name, ...rest }) => {
    setServerError(null);
    const result = await getKestrelRuntime().session.signUp(name ? { ...rest, name } : rest);
    if (result.success) onSignedUp();
    else setServerError(result.error);
  });
  return (
    <form onSubmit={submit} noValidate aria-label="Create account" className="sh:flex sh:flex-col sh:gap-4">
      <TextField
        label="Name"
        hint="Optional; shown in the top bar."
        autoComplete="name"
        error={errors.name}
        {...form.field('name')}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email}
        {...form.field('email')}
      />
      <TextField
        label="Password"
        hint={`${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters. A long passphrase is best; no other rules.`}
        type="password"
        autoComplete="new-password"
        error={errors.password}
        {...form.field('password')}
      />
      <FormError message={serverError ?? form.formError} />
      <Button type="submit" disabled={submitting}>
        {submitting ? 'Creating account...' : 'Create account'}
      </Button>
    </form>
  );
}
