import { createMemoryStorage, type KeyValueStorage, STORAGE_KEYS } from '@kestrel/shared-runtime';
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderOffline } from '../../test/offline-runtime';
import { ConnectionStatus } from './connection-status';

function show(storage?: KeyValueStorage) {
  return renderOffline(<ConnectionStatus />, storage).runtime;
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
