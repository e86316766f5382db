import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Field, type FieldProps } from './field';
import { Input } from './input';

function TextField(props: Omit<FieldProps, 'children'>) {
  return <Field {...props}>{(control) => <Input {...control} />}</Field>;
}

/** A select whose error shows until a side is picked */
function Side() {
  const [side, setSide] = useState('');
  return (
    <Field label="Side" error={side ? undefined : 'Pick a side'}>
      {(control) => (
        <select {...control} value={side} onChange={(e) => setSide(e.target.value)}>
          <option value="">—</option>
          <option value="long">Long</option>
        </select>
      )}
    </Field>
  );
}

/** What a screen reader reads after the control's name: the texts aria-describedby points at, in order */
function description(control: HTMLElement): string {
  const ids = control.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? `<missing #${id}>`).join(' | ');
}

describe('Field', () => {
  it('names the control by its label and reads the hint with it', () => {
    render(<TextField label="Password" hint="8 to 128 characters" />);
    const input = screen.getByRole('textbox', { name: 'Password' });
    expect(description(input)).toBe('8 to 128 characters');
    expect(input.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('has no description at all without a hint or an error', () => {
    render(<TextField label="Email" />);
    expect(screen.getByRole('textbox', { name: 'Email' }).hasAttribute('aria-describedby')).toBe(false);
  });

  it('marks the control invalid and announces the error, the rule first and then what broke it', () => {
    render(<TextField label="Password" hint="8 to 128 characters" error="Password is too short" />);
    const input = screen.getByRole('textbox', { name: 'Password' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Password is too short');
    expect(description(input)).toBe('8 to 128 characters | Password is too short');
  });

  it('can let the error take the hint’s place, and keep the error out of the alerts', () => {
    render(
      <TextField
        label="Start date"
        hint="UTC, from 00:00"
        error="Start date is required"
        announceError={false}
        errorReplacesHint
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Start date' });
    expect(description(input)).toBe('Start date is required');
    expect(screen.queryByText('UTC, from 00:00')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('wires any control, and the error comes and goes with the value', async () => {
    render(<Side />);
    const select = screen.getByRole('combobox', { name: 'Side' });
    expect(description(select)).toBe('Pick a side');
    await userEvent.setup().selectOptions(select, 'long');
    expect(select.getAttribute('aria-invalid')).toBe('false');
    expect(select.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('gives each field its own ids', () => {
    render(
      <>
        <TextField label="API Key" error="Required" />
        <TextField label="Secret Key" error="Required" />
      </>,
    );
    const key = screen.getByRole('textbox', { name: 'API Key' });
    const secret = screen.getByRole('textbox', { name: 'Secret Key' });
    expect(key.id).not.toBe(secret.id);
    expect(key.getAttribute('aria-describedby')).not.toBe(secret.getAttribute('aria-describedby'));
  });

  it('keeps its own layout classes and takes the caller’s', () => {
    const { container } = render(<TextField label="Params" className="bt:sm:col-span-2" />);
    const field = container.querySelector('[data-slot="field"]');
    expect(field?.className.split(' ')).toEqual(expect.arrayContaining(['ui:flex', 'bt:sm:col-span-2']));
  });
});
