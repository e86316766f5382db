import { zodResolver } from '@hookform/resolvers/zod';
import {
  DELETE_ACCOUNT_CONFIRMATION,
  type DeleteAccountRequest,
  DeleteAccountRequestSchema,
} from '@kestrel/contracts/account';
import { Button, Input } from '@kestrel/ui';
import { Form, FormField, FormMessage } from '@kestrel/ui/form';
import { useForm } from 'react-hook-form';
import { failureText } from '../../../lib/failure-text';

type Values = DeleteAccountRequest;

/**
 * Deleting the account: the password and the typed confirmation. The server stops every bot, deletes the stored
 * keys and everything else, and ends every session; this page then signs out
 */
export function DeleteAccount({ onDelete }: { onDelete: (body: DeleteAccountRequest) => Promise<unknown> }) {
  const form = useForm<Values, unknown, DeleteAccountRequest>({
    resolver: zodResolver(DeleteAccountRequestSchema),
    defaultValues: { password: '', confirmation: '' },
  });
  const submit = async (body: DeleteAccountRequest) => {
    try {
      await onDelete(body);
    } catch (err) {
      form.setError('root', { message: failureText(err, 'The account could not be deleted') });
    }
  };
  return (
    <Form form={form} onSubmit={submit} aria-label="Delete account">
      <div className="ac:grid ac:gap-4 ac:sm:grid-cols-2">
        <FormField<Values, 'password'> name="password" label="Password">
          {(control) => <Input {...control} type="password" autoComplete="current-password" />}
        </FormField>
        <FormField<Values, 'confirmation'>
          name="confirmation"
          label={`Type ${DELETE_ACCOUNT_CONFIRMATION} to confirm`}
        >
          {(control) => <Input {...control} autoComplete="off" />}
        </FormField>
      </div>
      <FormMessage />
      <div>
        <Button type="submit" variant="destructive" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? 'Deleting…' : 'Delete my account'}
        </Button>
      </div>
    </Form>
  );
}
