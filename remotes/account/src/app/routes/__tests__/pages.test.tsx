import type { RemoteComponentLoader } from '@kestrel/shared-runtime/federation';
import { RemoteLoaderProvider } from '@kestrel/shared-runtime/federation';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType, ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testRuntime } from '../../../test/runtime';
import SettingsPage from '../settings';

// The slot's tests need no server: the page's own settings read fails against a closed port and says so
const runtime = testRuntime();
const withRuntime = (page: ReactNode) => (
  <KestrelRuntimeProvider runtime={runtime}>
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      {page}
    </QueryClientProvider>
  </KestrelRuntimeProvider>
);

/** The exchange-connect remote's module as the federation runtime would hand it over */
function Connections() {
  return <article aria-label="Binance">Connect Exchange</article>;
}

describe('the settings page', () => {
  beforeEach(() => {
    // RemoteSlot reports a failed load on the console; the test reads the fallback instead
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("mounts the exchange-connect remote's connections through a RemoteSlot, under its own heading", async () => {
    const load = vi.fn(async () => Connections as ComponentType<never>);
    render(
      <RemoteLoaderProvider value={load as unknown as RemoteComponentLoader}>
        {withRuntime(<SettingsPage />)}
      </RemoteLoaderProvider>,
    );
    const region = screen.getByRole('region', { name: 'Settings' });
    expect(region.getAttribute('data-remote')).toBe('account');
    const exchanges = screen.getByRole('region', { name: 'Exchange connections' });
    expect(within(exchanges).getByRole('status').textContent).toBe('Loading Exchange connections...');
    expect(await within(exchanges).findByRole('article', { name: 'Binance' })).toBeTruthy();
    expect(load).toHaveBeenCalledWith('exchange_connect', './ExchangeConnections', { fresh: false });
  });

  it('shows the fallback with Retry when the remote cannot load, and loads afresh on Retry', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(new Error('manifest unreachable'))
      .mockResolvedValueOnce(Connections);
    const user = userEvent.setup();
    render(
      <RemoteLoaderProvider value={load as unknown as RemoteComponentLoader}>
        {withRuntime(<SettingsPage />)}
      </RemoteLoaderProvider>,
    );
    const fallback = await within(screen.getByRole('region', { name: 'Exchange connections' })).findByRole(
      'alert',
    );
    expect(fallback.textContent).toContain('Exchange connections is unavailable right now');
    // The rest of the page stays
    expect(screen.getByRole('heading', { level: 1, name: 'Settings' })).toBeTruthy();
    await user.click(within(fallback).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Binance' })).toBeTruthy();
    expect(load).toHaveBeenLastCalledWith('exchange_connect', './ExchangeConnections', { fresh: true });
  });
});
