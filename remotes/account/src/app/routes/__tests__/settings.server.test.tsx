/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The settings page against the real server (Fastify on PGlite) and the runtime's own environment state
import { startTestServer, type TestServer } from '@kestrel/server/testing';
import type { KestrelRuntime, ToastMessage } from '@kestrel/shared-runtime';
import { type RemoteComponentLoader, RemoteLoaderProvider } from '@kestrel/shared-runtime/federation';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testRuntime } from '../../../test/runtime';
import SettingsPage from '../settings';

let server: TestServer;
let runtime: KestrelRuntime;
const toasts: ToastMessage[] = [];
const slow = { timeout: 10_000 };

beforeAll(async () => {
  server = await startTestServer({ clock: 'wall', mainnet: true });
  const apiBaseUrl = await server.listen();
  runtime = testRuntime(apiBaseUrl);
  runtime.toasts$.subscribe((t) => toasts.push(t));
  expect(
    await runtime.session.signUp({
      email: 'settings@example.test',
      password: 'correct horse battery staple',
    }),
  ).toMatchObject({ success: true });
}, 60_000);
afterAll(async () => {
  runtime?.dispose();
  await server?.close();
});

function renderPage() {
  const load = vi.fn(async () => (() => <article aria-label="Binance" />) as ComponentType<never>);
  render(
    <RemoteLoaderProvider value={load as unknown as RemoteComponentLoader}>
      <KestrelRuntimeProvider runtime={runtime}>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <SettingsPage />
        </QueryClientProvider>
      </KestrelRuntimeProvider>
    </RemoteLoaderProvider>,
  );
  return userEvent.setup();
}

describe('the settings page', { timeout: 30_000 }, () => {
  it('switches to mainnet only after confirming, and back; the toasts are the spec’s and the history shows both', async () => {
    const user = renderPage();
    const env = screen.getByRole('region', { name: 'Trading environment' });
    expect(within(env).getByText('Testnet · simulation with fake funds')).toBeTruthy();
    expect(within(env).getByText('No switch yet: you are on the default, testnet.')).toBeTruthy();

    await user.click(within(env).getByRole('button', { name: 'Switch to mainnet' }));
    const confirm = within(env).getByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: 'Stay on testnet' }));
    expect(runtime.environment.state.currentEnvironment).toBe('testnet');

    await user.click(within(env).getByRole('button', { name: 'Switch to mainnet' }));
    await user.click(within(env).getByRole('button', { name: 'Confirm: switch to mainnet' }));
    // The server switches (issue 23): the page shows its answer
    expect(await within(env).findByText('Mainnet · LIVE trading with real money')).toBeTruthy();
    await user.click(within(env).getByRole('button', { name: 'Switch to testnet' }));
    expect(await within(env).findByText('Testnet · simulation with fake funds')).toBeTruthy();

    const history = within(env).getByRole('list', { name: 'Environment history' });
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((li) => li.firstChild?.textContent),
    ).toEqual(['Testnet', 'Mainnet (LIVE)']);
    expect(toasts.map((t) => [t.title, t.variant])).toEqual([
      ['Switched to Mainnet', 'destructive'],
      ['Switched to Testnet', 'default'],
    ]);
  });

  it('switches the theme the shell uses: stored under kestrel-theme, marked on the root, in step with the top bar', async () => {
    const user = renderPage();
    const theme = screen.getByRole('region', { name: 'Theme' });
    // happy-dom has no system preference: light, as the spec says when the system prefers light
    expect(within(theme).getByRole('radio', { name: /^Light/ })).toHaveProperty('checked', true);

    await user.click(within(theme).getByRole('radio', { name: /^Dark/ }));
    expect(document.documentElement.classList.contains('dark')).toBe(true);
    expect(runtime.storage.getItem('kestrel-theme')).toBe('dark');
    expect(runtime.theme.get()).toBe('dark');

    // The top bar's toggle changes the same store: the page follows
    act(() => runtime.theme.toggle());
    expect(within(theme).getByRole('radio', { name: /^Light/ })).toHaveProperty('checked', true);
    expect(document.documentElement.classList.contains('dark')).toBe(false);
    expect(runtime.storage.getItem('kestrel-theme')).toBe('light');
  });

  it('stores default bot limits on the server, refusing an out-of-range one by its rule', async () => {
    const user = renderPage();
    const form = await screen.findByRole('form', { name: 'Default bot limits' }, slow);
    const drawdown = within(form).getByLabelText(/^Max drawdown/);
    await user.type(drawdown, '150');
    await user.click(within(form).getByRole('button', { name: 'Save default limits' }));
    expect(await within(form).findByText('Max drawdown must be between 0.01 and 100')).toBeTruthy();

    await user.clear(drawdown);
    await user.type(drawdown, '12.5');
    await user.type(within(form).getByLabelText(/^Max notional/), '500');
    await user.click(within(form).getByRole('button', { name: 'Save default limits' }));
    expect((await within(form).findByRole('status', {}, slow)).textContent).toBe('Default limits saved');
    await waitFor(async () => {
      const stored = await runtime.api.get<{ data: { defaultBotRiskLimits: unknown } }>(
        '/api/v1/account/settings',
      );
      expect(stored.success && stored.data.data.defaultBotRiskLimits).toEqual({
        maxNotional: 500,
        dailyLossLimit: null,
        maxDrawdownPercent: 12.5,
      });
    });
  });
});
