import { zodResolver } from '@hookform/resolvers/zod';
import {
  ChangePasswordFormSchema,
  type ChangePasswordFormValues,
  type ChangePasswordRequest,
} from '@kestrel/contracts/account';
import { Input } from '@kestrel/ui';
import { Form, FormField, FormMessage } from '@kestrel/ui/form';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { DoneNote, SubmitRow } from '../../../components/form-parts';
import { failureText } from '../../../lib/failure-text';

type Values = ChangePasswordFormValues;

const EMPTY: Values = { current_password: '', new_password: '', repeat: '' };

/** The current password, then the new one twice; on success every other session is signed out */
export function PasswordForm({
  onChange,
}: {
  onChange: (body: ChangePasswordRequest) => Promise<{ sessionsEnded: number }>;
}) {
  const form = useForm<Values, unknown, ChangePasswordRequest>({
    resolver: zodResolver(ChangePasswordFormSchema),
    defaultValues: EMPTY,
  });
  const [done, setDone] = useState<string | null>(null);

  const submit = async (body: ChangePasswordRequest) => {
    setDone(null);
    try {
      const { sessionsEnded } = await onChange(body);
      form.reset(EMPTY);
      setDone(
        `Password changed. ${sessionsEnded === 1 ? '1 other session was' : `${sessionsEnded} other sessions were`} signed out.`,
      );
    } catch (err) {
      form.setError('root', { message: failureText(err, 'The password could not be changed') });
    }
  };

  return (
    <Form form={form} onSubmit={submit} aria-label="Change password">
      <FormField<Values, 'current_password'> name="current_password" label="Current password">
        {(control) => <Input {...control} type="password" autoComplete="current-password" />}
      </FormField>
      <div className="ac:grid ac:gap-4 ac:sm:grid-cols-2">
        <FormField<Values, 'new_password'>
          name="new_password"
          label="New password"
          hint="8 to 128 characters"
        >
          {(control) => <Input {...control} type="password" autoComplete="new-password" />}
        </FormField>
        <FormField<Values, 'repeat'> name="repeat" label="New password again">
          {(control) => <Input {...control} type="password" autoComplete="new-password" />}
        </FormField>
      </div>
      <FormMessage />
      <SubmitRow submitting={form.formState.isSubmitting} label="Change password" busyLabel="Changing…">
        {done && <DoneNote>{done}</DoneNote>}
      </SubmitRow>
    </Form>
  );
}
