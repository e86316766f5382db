import type { AccountTestResponse } from '@kestrel/contracts';
import type { ApiResult } from '@kestrel/shared-runtime';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNT, memoryCredentialsStore, testRuntime } from '../../../test/runtime';
import ConnectExchangeModal, { CLOSE_AFTER_SUCCESS_MS } from './connect-exchange-modal';

const API_KEY = 'dbefbc809e3e83c283a984c3a1459732ea7db1360ca80c5c2c8867408d28cc83';
const SECRET = '2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9';

/** The modal as the shell mounts it: open state held by the caller, which also counts completions */
function Host({ onComplete, initiallyOpen = true }: { onComplete: () => void; initiallyOpen?: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open connect modal
      </button>
      <ConnectExchangeModal open={open} onOpenChange={setOpen} onComplete={onComplete} />
    </>
  );
}

function setup(validate?: Parameters<typeof memoryCredentialsStore>[0]) {
  const credentials = memoryCredentialsStore(validate);
  const t = testRuntime(credentials.store);
  const onComplete = vi.fn();
  const user = userEvent.setup();
  render(<Host onComplete={onComplete} />, { wrapper: t.wrap });
  return { ...t, ...credentials, onComplete, user };
}

const dialog = () => screen.getByRole('dialog', { name: 'Connect Exchange' });
const card = (name: string) => within(dialog()).getByRole('article', { name });

async function openBinanceForm(user: ReturnType<typeof userEvent.setup>) {
  await user.click(within(card('Binance')).getByRole('button', { name: 'Connect Exchange' }));
  // The form's code loads on this step
  return screen.findByRole('form', { name: 'Connect Binance Exchange' });
}

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>, apiKey = API_KEY, secret = SECRET) {
  const form = await openBinanceForm(user);
  await user.type(within(form).getByLabelText('API Key'), apiKey);
  await user.type(within(form).getByLabelText('Secret Key'), secret);
  await user.click(within(form).getByRole('button', { name: 'Connect Exchange' }));
  return form;
}

// Real timers for typing and clicking; the spec's 1.5 s close is checked on fake timers where it is scheduled
afterEach(() => {
  vi.useRealTimers();
});

describe('step 1: selection (spec §2)', () => {
  it('shows the title, subtitle, three benefits, one card per exchange and the footer', () => {
    setup();
    const d = dialog();
    expect(within(d).getByRole('heading', { name: 'Connect Exchange' })).toBeTruthy();
    expect(d.getAttribute('aria-describedby')).toBeTruthy();
    expect(within(d).getByText('Choose an exchange to start trading.')).toBeTruthy();
    const benefits = within(within(d).getByRole('list', { name: 'Benefits' })).getAllByRole('listitem');
    expect(benefits.map((b) => b.querySelector('p')?.textContent)).toEqual([
      'Real-time Data',
      'Automated Trading',
      'Secure Connection',
    ]);
    expect(
      within(d)
        .getAllByRole('article')
        .map((a) => a.getAttribute('data-exchange')),
    ).toEqual(['binance', 'coinbase', 'kraken', 'bybit']);
    expect(within(d).getByText('You can connect an exchange later in Settings.')).toBeTruthy();
    expect(within(d).getByRole('button', { name: 'Skip for Now' })).toBeTruthy();
    // Continue only once an exchange is connected
    expect(within(d).queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('Skip for Now closes the modal', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Skip for Now' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Continue appears when an exchange is connected and closes the modal', async () => {
    const { user, runtime } = setup();
    await act(() => runtime.exchanges.connect('binance', { apiKey: API_KEY, secretKey: SECRET }));
    await user.click(within(dialog()).getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('step 2: the Binance form (spec §2, §5)', () => {
  it('has the subtitle, Back, heading, line, whitelist note, both fields and the buttons', async () => {
    const { user } = setup();
    const form = await openBinanceForm(user);
    expect(within(dialog()).getByText('Enter your API credentials')).toBeTruthy();
    expect(within(dialog()).getByRole('button', { name: 'Back' })).toBeTruthy();
    expect(within(form).getByRole('heading', { name: 'Connect Binance Exchange' })).toBeTruthy();
    expect(within(form).getByText('Enter your API credentials to start automated trading.')).toBeTruthy();
    // The note names this deployment's host (the server that calls Binance)
    expect(form.textContent).toMatch(/add the address of api\.kestrel\.test .*API IP whitelist/);

    const apiKey = within(form).getByLabelText('API Key') as HTMLInputElement;
    expect(apiKey.type).toBe('text');
    expect(apiKey.placeholder).toMatch(/64-character/);
    const secret = within(form).getByLabelText('Secret Key') as HTMLInputElement;
    expect(secret.type).toBe('password');
    await user.click(within(form).getByRole('button', { name: 'Show secret key' }));
    expect(secret.type).toBe('text');
    expect(within(form).getByRole('button', { name: 'Hide secret key' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await user.click(within(form).getByRole('button', { name: 'Hide secret key' }));
    expect(secret.type).toBe('password');

    expect(within(form).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    const submit = within(form).getByRole('button', { name: 'Connect Exchange' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
  });

  it('validates on every change with the spec messages, announced and tied to the field', async () => {
    const { user } = setup();
    const form = await openBinanceForm(user);
    const apiKey = within(form).getByLabelText('API Key');
    const secret = within(form).getByLabelText('Secret Key');
    const submit = within(form).getByRole('button', { name: 'Connect Exchange' }) as HTMLButtonElement;

    await user.type(apiKey, 'k');
    expect(submit.disabled).toBe(true); // the secret is still empty
    await user.clear(apiKey);
    const apiError = within(form).getByRole('alert');
    expect(apiError.textContent).toBe('API Key is required');
    expect(apiKey.getAttribute('aria-invalid')).toBe('true');
    expect(apiKey.getAttribute('aria-describedby')).toBe(apiError.id);

    await user.type(secret, 's');
    await user.clear(secret);
    expect(
      within(form)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toEqual(['API Key is required', 'Secret Key is required']);

    // No length rule: one character each is valid
    await user.type(apiKey, 'k');
    await user.type(secret, 's');
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(submit.disabled).toBe(false);
  });

  it('Back and Cancel return to the selection', async () => {
    const { user } = setup();
    await openBinanceForm(user);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(within(dialog()).getByText('Choose an exchange to start trading.')).toBeTruthy();
    const form = await openBinanceForm(user);
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog()).getByText('Choose an exchange to start trading.')).toBeTruthy();
  });
});

describe('connect flow (spec §4, §8)', () => {
  it('reads Connecting... while busy; on success closes 1500 ms later, completes, and reopens on the selection', async () => {
    let answer: (result: ApiResult<AccountTestResponse>) => void = () => {};
    const { user, onComplete, toasts, runtime, calls } = setup(
      () => new Promise((resolve) => (answer = resolve)),
    );
    const form = await fillAndSubmit(user);
    const busy = within(form).getByRole('button', { name: 'Connecting...' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    expect(runtime.exchanges.connections.binance.status).toBe('connecting');

    vi.useFakeTimers();
    await act(async () => answer({ success: true, data: ACCOUNT }));
    expect(calls).toEqual(['validate', 'save']);
    expect(toasts).toEqual([
      { title: 'Exchange Connected', description: 'Successfully connected to Binance', variant: 'default' },
    ]);
    expect(within(dialog()).getByRole('status').textContent).toBe('Binance connected.');

    expect(CLOSE_AFTER_SUCCESS_MS).toBe(1500);
    await act(async () => vi.advanceTimersByTime(1499));
    expect(screen.queryByRole('dialog')).not.toBeNull();
    expect(onComplete).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onComplete).toHaveBeenCalledTimes(1);
    vi.useRealTimers();

    await user.click(screen.getByRole('button', { name: 'Open connect modal' }));
    expect(within(dialog()).getByText('Choose an exchange to start trading.')).toBeTruthy();
    expect(within(card('Binance')).getByText('Active')).toBeTruthy();
  });

  it('a failed submit says nothing in the form and ends on the Binance card with the error', async () => {
    const reason = 'Binance connectivity failed: the secret key does not match the API key';
    const { user, toasts, calls } = setup(async () => ({
      success: false,
      error: reason,
      status: 400,
    }));
    await fillAndSubmit(user);
    expect(screen.queryByRole('form')).toBeNull();
    const binance = card('Binance');
    expect(within(binance).getByRole('alert').textContent).toBe(`Connection Error${reason}`);
    expect(within(binance).getByText('Available')).toBeTruthy();
    expect(within(binance).getByText('Status: Error')).toBeTruthy();
    expect(calls).toEqual(['validate']);
    expect(toasts).toEqual([
      {
        title: 'Binance Connectivity Failed',
        description: 'Binance connectivity failed for provided keys. Please check and re-submit.',
        variant: 'destructive',
      },
    ]);
  });

  it('other failures toast Connection Failed with the reason', async () => {
    const { user, toasts } = setup(async () => ({
      success: false,
      error: 'Authentication expired. Please sign in again.',
    }));
    await fillAndSubmit(user);
    expect(toasts).toEqual([
      {
        title: 'Connection Failed',
        description: 'Authentication expired. Please sign in again.',
        variant: 'destructive',
      },
    ]);
  });
});

describe('keyboard and screen reader (issue item 7)', () => {
  it('moves focus into the dialog, keeps Tab inside it, and Escape closes it back to the selection', async () => {
    const { user } = setup();
    const form = await openBinanceForm(user);
    // The card button that opened the form is gone: focus lands on the first field
    expect(document.activeElement).toBe(within(form).getByLabelText('API Key'));
    for (let i = 0; i < 12; i++) {
      await user.tab();
      expect(dialog().contains(document.activeElement)).toBe(true);
    }
    await user.click(within(form).getByLabelText('API Key'));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open connect modal' }));
    expect(within(dialog()).getByText('Choose an exchange to start trading.')).toBeTruthy();
  });
});
