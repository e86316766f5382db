import type { CredentialsStatusResponse } from '@kestrel/contracts';
import { type ApiResult, EXCHANGE_CATALOGUE, type ExchangeConnection } from '@kestrel/shared-runtime';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { memoryCredentialsStore, testRuntime } from '../../../test/runtime';
import { ExchangeCard } from './exchange-card';
import ExchangeConnections from './exchange-connections';

const API_KEY = 'dbefbc809e3e83c283a984c3a1459732ea7db1360ca80c5c2c8867408d28cc83';
const SECRET = '2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9';
const CONNECTED_AT = Date.UTC(2026, 1, 3, 14, 30);

const entry = (id: string) => {
  const found = EXCHANGE_CATALOGUE.find((e) => e.id === id);
  if (!found) throw new Error(`no catalogue entry ${id}`);
  return found;
};
const connection = (
  id: 'binance' | 'kraken',
  patch: Partial<ExchangeConnection> = {},
): ExchangeConnection => ({
  id,
  name: entry(id).name,
  status: 'disconnected',
  credentials: null,
  lastConnected: null,
  error: null,
  isAvailable: entry(id).isAvailable,
  comingSoon: entry(id).comingSoon,
  ...patch,
});

function renderCard(id: 'binance' | 'kraken', patch: Partial<ExchangeConnection> = {}) {
  const onConnect = vi.fn();
  const onDisconnect = vi.fn();
  render(
    <ExchangeCard
      exchange={entry(id)}
      connection={connection(id, patch)}
      onConnect={onConnect}
      onDisconnect={onDisconnect}
    />,
  );
  return { card: screen.getByRole('article', { name: entry(id).displayName }), onConnect, onDisconnect };
}

describe('exchange card (spec §2)', () => {
  it('shows name, initial, description, the four features and an Available badge with Connect Exchange', () => {
    const { card, onConnect } = renderCard('binance');
    expect(within(card).getByRole('heading', { name: 'Binance' })).toBeTruthy();
    expect(within(card).getByText('B')).toBeTruthy();
    expect(within(card).getByText(entry('binance').description)).toBeTruthy();
    expect(
      within(within(card).getByRole('list', { name: 'Features' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Spot Trading', 'Futures Trading', 'Real-time Data', 'Advanced Orders']);
    expect(within(card).getByText('Available')).toBeTruthy();
    expect(within(card).getByText('Status: Disconnected').previousElementSibling?.tagName).toBe('svg');
    expect(within(card).queryByText(/Last connected/)).toBeNull();
    within(card).getByRole('button', { name: 'Connect Exchange' }).click();
    expect(onConnect).toHaveBeenCalledTimes(1);
  });

  it('a coming-soon exchange has the Coming Soon badge and a disabled Coming Soon button', () => {
    const { card } = renderCard('kraken');
    expect(within(card).getAllByText('Coming Soon')).toHaveLength(2);
    expect((within(card).getByRole('button', { name: 'Coming Soon' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(within(card).queryByRole('button', { name: 'Connect Exchange' })).toBeNull();
  });

  it('while connecting the Connect Exchange button is disabled and the status reads Connecting...', () => {
    const { card } = renderCard('binance', { status: 'connecting' });
    expect(
      (within(card).getByRole('button', { name: 'Connect Exchange' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(within(card).getByText('Status: Connecting...')).toBeTruthy();
  });

  it('connected: Active badge, Disconnect, and Last connected as a local date-time', () => {
    const { card, onDisconnect } = renderCard('binance', {
      status: 'connected',
      lastConnected: CONNECTED_AT,
    });
    expect(within(card).getByText('Active')).toBeTruthy();
    expect(within(card).getByText('Status: Connected')).toBeTruthy();
    expect(within(card).getByText(/^Last connected:/).textContent).toBe(
      `Last connected: ${new Date(CONNECTED_AT).toLocaleString()}`,
    );
    within(card).getByRole('button', { name: 'Disconnect' }).click();
    expect(onDisconnect).toHaveBeenCalledTimes(1);
  });

  it('an error shows the Connection Error block with the text, announced', () => {
    const { card } = renderCard('binance', { status: 'error', error: 'Exchange not supported yet' });
    const alert = within(card).getByRole('alert');
    expect(within(alert).getByText('Connection Error')).toBeTruthy();
    expect(within(alert).getByText('Exchange not supported yet')).toBeTruthy();
    expect(within(card).getByText('Status: Error')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Connect Exchange' })).toBeTruthy();
  });
});

describe('exchange connections (settings)', () => {
  it("a card's Connect Exchange opens the connect modal on the Binance form", async () => {
    const { store } = memoryCredentialsStore();
    const { wrap } = testRuntime(store);
    const user = userEvent.setup();
    render(<ExchangeConnections />, { wrapper: wrap });
    expect(screen.getAllByRole('article')).toHaveLength(4);
    await user.click(
      within(screen.getByRole('article', { name: 'Binance' })).getByRole('button', {
        name: 'Connect Exchange',
      }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Connect Exchange' });
    expect(await within(dialog).findByRole('form', { name: 'Connect Binance Exchange' })).toBeTruthy();
  });

  it('Disconnect deletes the server copy and returns the card to Available, with a toast', async () => {
    const { store, calls } = memoryCredentialsStore();
    const { wrap, runtime, toasts } = testRuntime(store);
    await runtime.exchanges.connect('binance', { apiKey: API_KEY, secretKey: SECRET });
    const user = userEvent.setup();
    render(<ExchangeConnections />, { wrapper: wrap });
    const card = screen.getByRole('article', { name: 'Binance' });
    expect(within(card).getByText('Active')).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Disconnect' }));
    expect(await within(card).findByText('Available')).toBeTruthy();
    expect(calls.at(-1)).toBe('remove');
    expect(within(card).getByRole('button', { name: 'Connect Exchange' })).toBeTruthy();
    expect(toasts.at(-1)).toMatchObject({ title: 'Exchange Disconnected' });
  });

  it("Check Connection shows the server's answer, or toasts why the check failed", async () => {
    let answer: () => Promise<ApiResult<CredentialsStatusResponse>> = async () => ({
      success: true,
      data: {
        success: true,
        data: { exchange: 'binance', configured: true, connectivity_status: 'connected' },
        message: 'Binance connectivity OK',
      },
    });
    const { store } = memoryCredentialsStore(undefined, () => answer());
    const { wrap, runtime, toasts } = testRuntime(store);
    await runtime.exchanges.connect('binance', { apiKey: API_KEY, secretKey: SECRET });
    const user = userEvent.setup();
    render(<ExchangeConnections />, { wrapper: wrap });
    const card = screen.getByRole('article', { name: 'Binance' });
    await user.click(within(card).getByRole('button', { name: 'Check Connection' }));
    expect((await within(card).findByRole('status')).textContent).toBe('Binance connectivity OK');

    answer = async () => ({ success: false, error: 'HTTP 500: Internal Server Error', status: 500 });
    await user.click(within(card).getByRole('button', { name: 'Check Connection' }));
    await within(card).findByRole('button', { name: 'Check Connection' });
    expect(toasts.at(-1)).toEqual({
      title: 'Connection Error',
      description: 'Failed to check connectivity',
      variant: 'destructive',
    });
    expect(within(card).queryByRole('status')).toBeNull();

    answer = async () => ({ success: false, error: 'Connection failed', unreachable: true });
    await user.click(within(card).getByRole('button', { name: 'Check Connection' }));
    await within(card).findByRole('button', { name: 'Check Connection' });
    expect(toasts.at(-1)).toMatchObject({ title: 'Connection Error', description: 'Network error' });
  });
});
