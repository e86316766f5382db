/**
 * @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}}
 */
// The server runs in this page's realm and calls the simulator with the page's fetch: no same-origin rule for it
import { startTestServer, type TestServer } from '@kestrel/server/testing';
import { createKestrelRuntime, type KestrelRuntime } from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ConnectExchangeModal from '../features/exchanges/components/connect-exchange-modal';
import ExchangeConnections from '../features/exchanges/components/exchange-connections';
import { TEST_CONFIG } from './runtime';

// The modal in a page against the real server (Fastify on PGlite) and the Binance simulator: the keys typed in
// are really tested and stored by the server, through the page's fetch and localStorage

let server: TestServer;
let runtime: KestrelRuntime;

beforeAll(async () => {
  // The wall clock: the runtime judges the tokens' expiry by the real time
  server = await startTestServer({ clock: 'wall' });
  const apiBaseUrl = await server.listen();
  // No socket server: nothing listens on port 1
  runtime = createKestrelRuntime({ ...TEST_CONFIG, apiBaseUrl, socketBaseUrl: 'ws://127.0.0.1:1/ws' });
  const signedUp = await runtime.session.signUp({
    email: 'modal-user@example.test',
    password: 'correct horse battery staple',
  });
  expect(signedUp).toMatchObject({ success: true });
}, 60_000);
afterAll(async () => {
  runtime?.dispose();
  await server?.close();
});

async function submit(user: ReturnType<typeof userEvent.setup>, apiKey: string, secretKey: string) {
  const dialog = screen.getByRole('dialog', { name: 'Connect Exchange' });
  await user.click(
    within(within(dialog).getByRole('article', { name: 'Binance' })).getByRole('button', {
      name: 'Connect Exchange',
    }),
  );
  const form = await screen.findByRole('form', { name: 'Connect Binance Exchange' });
  await user.type(within(form).getByLabelText('API Key'), apiKey);
  await user.type(within(form).getByLabelText('Secret Key'), secretKey);
  await user.click(within(form).getByRole('button', { name: 'Connect Exchange' }));
}

describe('connect modal against the server and the simulator', () => {
  it('a wrong secret ends on the card with the reason; the right one makes it Active, no secret in storage', async () => {
    const keys = server.demoKeys();
    const user = userEvent.setup();
    render(
      <KestrelRuntimeProvider runtime={runtime}>
        <ConnectExchangeModal open onOpenChange={() => {}} />
      </KestrelRuntimeProvider>,
    );

    await submit(user, keys.apiKey, 'f'.repeat(64));
    const card = await screen.findByRole('article', { name: 'Binance' }, { timeout: 10_000 });
    const alert = within(card).getByRole('alert');
    expect(alert.textContent).toMatch(
      /^Connection ErrorBinance connectivity failed: the secret key does not match the API key/,
    );

    await submit(user, keys.apiKey, keys.secretKey);
    expect(await screen.findByRole('status', {}, { timeout: 10_000 })).toBeTruthy();
    expect(runtime.exchanges.connections.binance.status).toBe('connected');
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i++) {
        const value = storage.getItem(storage.key(i) ?? '') ?? '';
        expect(value).not.toContain(keys.secretKey);
        expect(atobOrEmpty(value)).not.toContain(keys.secretKey);
      }
    }
    expect(localStorage.getItem('kestrel-exchange-connections')).toBeTruthy();
  }, 30_000);

  it("the connected card in Settings shows the key's permissions and the position mode, as the exchange says", async () => {
    // The previous test connected the demo account's keys
    expect(runtime.exchanges.connections.binance.status).toBe('connected');
    render(
      <QueryClientProvider client={new QueryClient()}>
        <KestrelRuntimeProvider runtime={runtime}>
          <ExchangeConnections />
        </KestrelRuntimeProvider>
      </QueryClientProvider>,
    );
    const card = screen.getByRole('article', { name: 'Binance' });
    const key = await within(card).findByLabelText('API key', {}, { timeout: 10_000 });
    const facts = Object.fromEntries(
      within(key)
        .getAllByRole('term')
        .map((t) => [t.textContent, t.nextElementSibling?.textContent]),
    );
    expect(facts).toEqual({
      Permissions: 'Reading, Futures trading',
      Withdrawals: 'Off',
      'IP restriction': 'Off',
      'Position mode': 'One-way (one position per symbol)',
    });
  }, 30_000);
});

function atobOrEmpty(value: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0)));
  } catch {
    return '';
  }
}
