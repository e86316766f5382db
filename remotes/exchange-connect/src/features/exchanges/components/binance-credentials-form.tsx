import { zodResolver } from '@hookform/resolvers/zod';
import { CredentialsFormSchema, type CredentialsFormValues } from '@kestrel/contracts';
import { useKestrelRuntime } from '@kestrel/shared-runtime/react';
import { Button, Field, Input } from '@kestrel/ui';
import { useEffect, useId, useState } from 'react';
import { type FieldError, useForm } from 'react-hook-form';

type KeyFieldProps = React.ComponentProps<'input'> & {
  label: string;
  error?: FieldError | undefined;
  /** Beside the input, inside the same row (the secret's show/hide toggle) */
  addon?: React.ReactNode;
};

/** A key's input in ui's Field (label, announced error), with room for a button beside it */
function KeyField({ label, error, addon, ...input }: KeyFieldProps) {
  return (
    <Field label={label} error={error?.message}>
      {(control) => (
        <div className="xc:flex xc:gap-2">
          <Input autoComplete="off" spellCheck={false} {...control} {...input} />
          {addon}
        </div>
      )}
    </Field>
  );
}

/** The host Binance sees calls from is the Kestrel server's; its name is what the user can act on */
function serverHost(apiBaseUrl: string): string {
  try {
    return new URL(apiBaseUrl, window.location.href).hostname;
  } catch {
    return window.location.hostname;
  }
}

export type BinanceCredentialsFormProps = {
  onCancel: () => void;
  onConnected: () => void;
  /** The submit failed: the reason is on the Binance card (and in a toast), never in the form */
  onFailed: () => void;
};

/** Spec §2 step 2 and §5: both keys required, validated on every change, submit disabled until valid */
export function BinanceCredentialsForm({ onCancel, onConnected, onFailed }: BinanceCredentialsFormProps) {
  const runtime = useKestrelRuntime();
  const [showSecret, setShowSecret] = useState(false);
  const headingId = useId();
  const form = useForm<CredentialsFormValues>({
    resolver: zodResolver(CredentialsFormSchema),
    mode: 'onChange',
    defaultValues: { apiKey: '', secretKey: '' },
  });
  const { errors, isSubmitting, isValid } = form.formState;
  // The card button that opened the form is gone: keyboard and screen-reader users land on the first field
  const { setFocus } = form;
  useEffect(() => setFocus('apiKey'), [setFocus]);
  const submit = form.handleSubmit(async (values) => {
    const result = await runtime.exchanges.connect('binance', values);
    if (result.success) onConnected();
    else onFailed();
  });
  return (
    <form onSubmit={submit} noValidate aria-labelledby={headingId} className="xc:flex xc:flex-col xc:gap-4">
      <div className="xc:flex xc:flex-col xc:gap-1">
        <h3 id={headingId} className="xc:text-base xc:font-semibold">
          Connect Binance Exchange
        </h3>
        <p className="xc:text-sm xc:text-muted-foreground">
          Enter your API credentials to start automated trading.
        </p>
      </div>
      <p className="xc:rounded-md xc:border xc:border-border xc:bg-muted xc:px-3 xc:py-2 xc:text-sm">
        If your API key is restricted to trusted IPs, add the address of{' '}
        <strong className="xc:font-mono">{serverHost(runtime.config.apiBaseUrl)}</strong> (the Kestrel server
        that calls Binance) to the key's API IP whitelist. Leave withdrawals disabled: such keys are refused.
      </p>
      <KeyField
        label="API Key"
        type="text"
        placeholder="Your 64-character API key"
        error={errors.apiKey}
        {...form.register('apiKey')}
      />
      <KeyField
        label="Secret Key"
        type={showSecret ? 'text' : 'password'}
        placeholder="Your 64-character secret key"
        error={errors.secretKey}
        addon={
          <Button variant="outline" aria-pressed={showSecret} onClick={() => setShowSecret((s) => !s)}>
            {showSecret ? 'Hide' : 'Show'}
            <span className="xc:sr-only"> secret key</span>
          </Button>
        }
        {...form.register('secretKey')}
      />
      <div className="xc:flex xc:flex-col-reverse xc:gap-2 xc:sm:flex-row xc:sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" disabled={!isValid || isSubmitting}>
          {isSubmitting ? 'Connecting...' : 'Connect Exchange'}
        </Button>
      </div>
    </form>
  );
}
