import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@kestrel/contracts';
import { type UpdateProfileRequest, UpdateProfileRequestSchema } from '@kestrel/contracts/account';
import { Field, Input } from '@kestrel/ui';
import { Form, FormField, FormMessage } from '@kestrel/ui/form';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { DoneNote, SubmitRow } from '../../../components/form-parts';
import { failureText } from '../../../lib/failure-text';

type Values = UpdateProfileRequest;

/** Display name (editable) and the email the user signs in with (shown, not editable here) */
export function ProfileForm({
  user,
  onSave,
}: {
  user: User;
  onSave: (body: UpdateProfileRequest) => Promise<unknown>;
}) {
  const form = useForm<Values, unknown, { name: string | null }>({
    resolver: zodResolver(UpdateProfileRequestSchema),
    defaultValues: { name: user.name ?? '' },
  });
  const [saved, setSaved] = useState(false);
  const { reset } = form;
  useEffect(() => {
    if (!form.formState.isDirty) reset({ name: user.name ?? '' });
  }, [user.name, reset, form.formState.isDirty]);

  const submit = async (values: { name: string | null }) => {
    setSaved(false);
    try {
      await onSave(values);
      reset({ name: values.name ?? '' });
      setSaved(true);
    } catch (err) {
      form.setError('root', { message: failureText(err, 'The profile could not be saved') });
    }
  };

  return (
    <Form form={form} onSubmit={submit} aria-label="Profile">
      <Field label="Email" hint="You sign in with it">
        {(wiring) => (
          <Input {...wiring} value={user.email} readOnly className="ac:bg-muted ac:text-muted-foreground" />
        )}
      </Field>
      <FormField<Values, 'name'> name="name" label="Display name" hint="Up to 100 characters; empty for none">
        {(control) => <Input {...control} value={control.value ?? ''} autoComplete="name" />}
      </FormField>
      <FormMessage />
      <SubmitRow submitting={form.formState.isSubmitting} label="Save profile" busyLabel="Saving…">
        {saved && <DoneNote>Profile saved</DoneNote>}
      </SubmitRow>
    </Form>
  );
}
