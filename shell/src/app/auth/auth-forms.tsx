import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@kestrel/contracts';
import { getKestrelRuntime } from '@kestrel/shared-runtime';
import { Button, Field, Input } from '@kestrel/ui';
import { useState } from 'react';
import { type FieldBinding, useSchemaForm } from './use-schema-form';

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

/** The account's email, the same field in both forms */
function EmailField(props: FieldBinding & { error?: string | undefined }) {
  return <TextField label="Email" type="email" autoComplete="email" {...props} />;
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

type AuthResult = { success: true } | { success: false; error: string };

/**
 * What both forms share: the checked values go to the session, the server's or the spec's message stays above the
 * button on failure, and the form is named by its action
 */
function AuthForm<Name extends string, Output>({
  action,
  pending,
  form,
  send,
  onDone,
  children,
}: {
  /** The form's name and its button's text */
  action: string;
  /** The button's text while the request is out */
  pending: string;
  form: ReturnType<typeof useSchemaForm<Name, Output>>;
  send: (values: Output) => Promise<AuthResult>;
  onDone: () => void;
  children: React.ReactNode;
}) {
  const [serverError, setServerError] = useState<string | null>(null);
  const submit = form.handleSubmit(async (values) => {
    setServerError(null);
    const result = await send(values);
    if (result.success) onDone();
    else setServerError(result.error);
  });
  return (
    <form onSubmit={submit} noValidate aria-label={action} className="sh:flex sh:flex-col sh:gap-4">
      {children}
      <FormError message={serverError ?? form.formError} />
      <Button type="submit" disabled={form.submitting}>
        {form.submitting ? pending : action}
      </Button>
    </form>
  );
}

/** Sign-in: email and password, sent as the spec says; the server's or the spec's message on failure */
export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const form = useSchemaForm(signinSchema, { email: '', password: '' });
  const { errors } = form;
  return (
    <AuthForm
      action="Sign in"
      pending="Signing in..."
      form={form}
      send={(values) => getKestrelRuntime().session.signIn(values)}
      onDone={onSignedIn}
    >
      <EmailField error={errors.email} {...form.field('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password}
        {...form.field('password')}
      />
    </AuthForm>
  );
}

/** Sign-up: name, email and password, with the password rule stated on screen */
export function SignUpForm({ onSignedUp }: { onSignedUp: () => void }) {
  // An empty or blank name is no name (it is optional)
  const form = useSchemaForm(signupSchema, { name: '', email: '', password: '' }, ({ name, ...rest }) =>
    name.trim() === '' ? rest : { ...rest, name },
  );
  const { errors } = form;
  return (
    <AuthForm
      action="Create account"
      pending="Creating account..."
      form={form}
      send={({ name, ...rest }) => getKestrelRuntime().session.signUp(name ? { ...rest, name } : rest)}
      onDone={onSignedUp}
    >
      <TextField
        label="Name"
        hint="Optional; shown in the top bar."
        autoComplete="name"
        error={errors.name}
        {...form.field('name')}
      />
      <EmailField error={errors.email} {...form.field('email')} />
      <TextField
        label="Password"
        hint={`${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters. A long passphrase is best; no other rules.`}
        type="password"
        autoComplete="new-password"
        error={errors.password}
        {...form.field('password')}
      />
    </AuthForm>
  );
}
