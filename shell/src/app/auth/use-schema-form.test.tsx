import { SignupRequestSchema } from '@kestrel/contracts';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignUpForm } from './auth-forms';
import { useSchemaForm } from './use-schema-form';

/** The sign-up form's hook around a handler the test sees */
function Harness({ onValid }: { onValid: (data: unknown) => Promise<void> }) {
  const form = useSchemaForm(
    () => Promise.resolve(SignupRequestSchema),
    { name: '', email: '', password: '' },
    ({ name, ...rest }) => (name.trim() === '' ? rest : { ...rest, name }),
  );
  return (
    <form aria-label="Harness" onSubmit={form.handleSubmit(onValid)}>
      <input aria-label="Name" {...form.field('name')} />
      <input aria-label="Email" {...form.field('email')} />
      <input aria-label="Password" {...form.field('password')} />
      <button type="submit" disabled={form.submitting}>
        {form.submitting ? 'Sending' : 'Send'}
      </button>
    </form>
  );
}

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the auth forms without react-hook-form', () => {
  afterEach(cleanup);

  it('says nothing while typing before the first submit, then shows each field error and focuses the first', async () => {
    render(<SignUpForm onSignedUp={() => undefined} />);
    type('Email', 'not an email');
    type('Password', 'short');
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    expect(screen.getByText('Password must be at least 8 characters')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
  });

  it('after a submit, checks a field again as it changes and clears only its own error', async () => {
    render(<SignUpForm onSignedUp={() => undefined} />);
    type('Email', 'not an email');
    type('Password', 'short');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    type('Password', 'a long enough passphrase');
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(1));
    expect(screen.queryByText('Password must be at least 8 characters')).toBeNull();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
  });

  it("hands the schema's output to the handler, a blank optional name left out, and is busy meanwhile", async () => {
    let finish: () => void = () => undefined;
    const onValid = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<Harness onValid={onValid} />);
    type('Name', '   ');
    type('Email', 'someone@example.com');
    type('Password', 'a long enough passphrase');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sending' })).toBeTruthy());
    expect(onValid).toHaveBeenCalledWith({
      email: 'someone@example.com',
      password: 'a long enough passphrase',
    });
    finish();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy());
  });

  it('trims a given name', async () => {
    const onValid = vi.fn(async () => undefined);
    render(<Harness onValid={onValid} />);
    type('Name', '  Ada  ');
    type('Email', 'ada@example.com');
    type('Password', 'a long enough passphrase');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onValid).toHaveBeenCalled());
    expect(onValid).toHaveBeenCalledWith({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'a long enough passphrase',
    });
  });
});
