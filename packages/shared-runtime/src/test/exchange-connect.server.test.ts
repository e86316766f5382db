// @vitest-environment node
import { startTestServer, type TestServer } from '@kestrel/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToastMessage } from '../state/toast';
import { createMemoryStorage, decodeBase64 } from '../storage/storage';
import { signedUpRuntime } from './test-runtime';

// The runtime's connect and disconnect against the real server (Fastify on PGlite) and the Binance simulator: the
// keys are really tried by the server against the exchange, stored in its vault, and deleted again

let server: TestServer;
let apiUrl: string;

beforeAll(async () => {
  // The wall clock: the runtime judges the tokens' expiry by the real time
  server = await startTestServer({ clock: 'wall' });
  apiUrl = await server.listen();
}, 60_000);
afterAll(() => server?.close());

/** A signed-up trader's runtime, as the shell wires it, with the toasts it emits */
async function signedInRuntime() {
  const storage = createMemoryStorage();
  const runtime = await signedUpRuntime(apiUrl, 'trader', storage);
  const toasts: ToastMessage[] = [];
  runtime.toasts$.subscribe((t) => toasts.push(t));
  return { runtime, storage, toasts };
}

function storedText(storage: ReturnType<typeof createMemoryStorage>): string {
  return storage
    .keys()
    .map((key) => {
      const value = storage.getItem(key) ?? '';
      try {
        return `${value} ${decodeBase64(value)}`;
      } catch {
        return value;
      }
    })
    .join('\n');
}

describe('connecting Binance through the server (simulator)', () => {
  it('tests the keys, stores them server-side only, and disconnect deletes them there', async () => {
    const { runtime, storage, toasts } = await signedInRuntime();
    const keys = server.demoKeys();
    expect(await runtime.exchanges.connect('binance', keys)).toEqual({ success: true });
    expect(runtime.exchanges.connections.binance).toMatchObject({ status: 'connected', error: null });
    expect(toasts.at(-1)).toEqual({
      title: 'Exchange Connected',
      description: 'Successfully connected to Binance',
      variant: 'default',
    });
    expect(storedText(storage)).not.toContain(keys.secretKey);

    const stored = await runtime.api.get<{ data: { api_key_masked: string } }>('/api/v1/credentials/binance');
    expect(stored.success && stored.data.data.api_key_masked).toBe(
      `${keys.apiKey.slice(0, 4)}********${keys.apiKey.slice(-4)}`,
    );

    await runtime.exchanges.disconnect('binance');
    expect(runtime.exchanges.connections.binance.status).toBe('disconnected');
    expect(toasts.at(-1)).toMatchObject({ title: 'Exchange Disconnected' });
    const gone = await runtime.api.get('/api/v1/credentials/binance');
    expect(gone).toMatchObject({ success: false, status: 404 });
  });

  it.each([
    [
      'a key that can withdraw',
      { permissions: { enableWithdrawals: true } },
      {},
      /this API key can withdraw funds/,
    ],
    ['a wrong secret', {}, { secretKey: 'f'.repeat(64) }, /secret key does not match the API key/],
    ['an unknown key', {}, { apiKey: 'Z'.repeat(64) }, /API key is unknown to Binance/],
  ])('%s ends in error with the reason, and nothing is stored', async (_case, account, override, reason) => {
    const { runtime, toasts } = await signedInRuntime();
    const keys = { ...server.demoKeys(account), ...override };
    const result = await runtime.exchanges.connect('binance', keys);
    expect(result).toMatchObject({ success: false, error: expect.stringMatching(reason) });
    const binance = runtime.exchanges.connections.binance;
    expect(binance.status).toBe('error');
    expect(binance.error).toMatch(/^Binance connectivity failed: /);
    expect(binance.error).toMatch(reason);
    // "connectivity" in the reason: the spec's Binance Connectivity Failed toast
    expect(toasts.at(-1)).toEqual({
      title: 'Binance Connectivity Failed',
      description: 'Binance connectivity failed for provided keys. Please check and re-submit.',
      variant: 'destructive',
    });
    expect(await runtime.api.get('/api/v1/credentials/binance')).toMatchObject({ status: 404 });
  });

  it('an unreachable exchange ends in error saying so', async () => {
    const { runtime } = await signedInRuntime();
    const keys = server.demoKeys();
    await fetch(`${server.simUrl}/_sim/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'error', status: 503, code: -1008, path: '/sapi', remaining: 1 }),
    });
    await runtime.exchanges.connect('binance', keys);
    expect(runtime.exchanges.connections.binance).toMatchObject({ status: 'error' });
    expect(runtime.exchanges.connections.binance.error).toMatch(
      /^Binance connectivity failed: exchange not reachable/,
    );
  });

  // Last: it stops the server for good
  it('an unreachable Kestrel server ends in error naming it', async () => {
    const { runtime } = await signedInRuntime();
    const keys = server.demoKeys();
    await server.app.close();
    await runtime.exchanges.connect('binance', keys);
    expect(runtime.exchanges.connections.binance).toMatchObject({
      status: 'error',
      error: `Connection failed to ${apiUrl}. Please check if the backend is running.`,
    });
  });
});
