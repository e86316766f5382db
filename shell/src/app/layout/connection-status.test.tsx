import { RuntimeConfigSchema } from '@kestrel/contracts';
import {
  createKestrelRuntime,
  createMemoryStorage,
  type KestrelRuntime,
  STORAGE_KEYS,
} from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionStatus } from './connection-status';

// Nothing listens on port 1: a connect attempt reaches no server and ends in error
const config = RuntimeConfigSchema.parse({
  apiBaseUrl: 'http://127.0.0.1:1',
  socketBaseUrl: 'ws://127.0.0.1:1',
  remotes: {
    dashboard: 'http://127.0.0.1:1/a.json',
    bots: 'http://127.0.0.1:1/b.json',
    exchange_connect: 'http://127.0.0.1:1/c.json',
    account: 'http://127.0.0.1:1/d.json',
  },
});

let runtime: KestrelRuntime | undefined;
afterEach(() => {
  cleanup();
  runtime?.dispose();
  runtime = undefined;
});

function show(storage = createMemoryStorage()) {
  runtime = createKestrelRuntime(config, { storage });
  render(
    <KestrelRuntimeProvider runtime={runtime}>
      <ConnectionStatus />
    </KestrelRuntimeProvider>,
  );
  return runtime;
}
const shown = () => screen.getByRole('status').textContent;

describe('the top bar’s exchange status (spec §2 labels)', () => {
  it('reads Disconnected, then Connecting... while the keys are tested, then Error when no server answers', async () => {
    const r = show();
    expect(shown()).toBe('Binance: Disconnected');
    let attempt: Promise<unknown> = Promise.resolve();
    act(() => {
      attempt = r.exchanges.connect('binance', { apiKey: 'key', secretKey: 'secret' });
    });
    expect(shown()).toBe('Binance: Connecting...');
    await act(() => attempt);
    expect(shown()).toBe('Binance: Error');
  });

  it('reads Connected for the connection kept from the last visit', () => {
    const stored = [
      {
        id: 'binance',
        status: 'connected',
        credentials: { apiKey: 'dbef-cc83', testnet: true },
        lastConnected: 1,
        error: null,
      },
    ];
    show(
      createMemoryStorage({
        [STORAGE_KEYS.exchangeConnections]: btoa(JSON.stringify(stored)),
        [STORAGE_KEYS.selectedExchange]: 'binance',
      }),
    );
    expect(shown()).toBe('Binance: Connected');
  });
});
