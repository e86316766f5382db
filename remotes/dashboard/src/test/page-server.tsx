import { startTestServer, type TestServer, type TestServerOptions } from '@kestrel/server/testing';
import type { KestrelRuntime } from '@kestrel/shared-runtime';
import { type RemoteComponentLoader, RemoteLoaderProvider } from '@kestrel/shared-runtime/federation';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType, ReactNode } from 'react';
import { expect, vi } from 'vitest';
import { testRuntime } from './runtime';

// The page tests' one way to a real server: Fastify on PGlite and the Binance simulator, in this test file's realm.
//
// A test file that uses `startPageServer` must begin with
//   /** @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}} */
// Vitest reads environment options from the test file's own first comment, never from a module it imports, so the
// line cannot live here. The server runs in the page's realm and its exchange client calls the simulator with the
// page's fetch; the simulator sends no CORS headers, and the server allows only its configured origin, so without
// the line happy-dom refuses those calls and the runtime's sign-up fails with a network error before any test runs.
// The line is the leading comment of the file's first import: Biome's fix for an unused import deletes it with that
// import (this is how a refactor lost it once), so `startPageServer` checks it is in force and says so if not.

/** happy-dom's settings of this test file's window, as its `@vitest-environment-options` set them */
function sameOriginPolicyDisabled(): boolean {
  const window = globalThis as {
    happyDOM?: { settings?: { fetch?: { disableSameOriginPolicy?: boolean } } };
  };
  return window.happyDOM?.settings?.fetch?.disableSameOriginPolicy === true;
}

export interface PageServer {
  server: TestServer;
  /** Signed in as the test's user */
  runtime: KestrelRuntime;
  userId: string;
  /** Disposes of the runtime, then stops the server and the simulator */
  close(): Promise<void>;
}

/**
 * The server and the simulator on the wall clock (the runtime judges token expiry by it, and a simulator whose time
 * stood still would see the server's signed timestamps run ahead of it: Binance's -1021), listening on loopback, and
 * a runtime signed up as `email`. Call from `beforeAll` with a long timeout (PGlite's start is slow)
 */
export async function startPageServer({
  email,
  simulator,
}: {
  email: string;
  simulator?: TestServerOptions['simulator'];
}): Promise<PageServer> {
  if (!sameOriginPolicyDisabled()) {
    throw new Error(
      'This test file must begin with /** @vitest-environment-options {"settings": {"fetch": {"disableSameOriginPolicy": true}}} */: the server shares the page\'s fetch (see src/test/page-server.tsx)',
    );
  }
  // A test file does a trader's hour of page loads in seconds, with four traders on one server: at Binance's
  // 2,400 a minute each one's fair share of the budget runs out (fast 429s). Ten times the budget on both sides
  const server = await startTestServer({
    clock: 'wall',
    simulator: { clock: { now: () => Date.now() }, rateLimits: { weightPerMinute: 24_000 }, ...simulator },
    env: { KESTREL_EXCHANGE_WEIGHT_LIMIT: '24000' },
  });
  let runtime: KestrelRuntime | undefined;
  const close = async () => {
    runtime?.dispose();
    await server.close();
  };
  try {
    runtime = testRuntime(await server.listen());
    const signedUp = await runtime.session.signUp({ email, password: 'correct horse battery staple' });
    if (!signedUp.success) {
      throw new Error(`signing up ${email} failed: ${signedUp.error}`);
    }
    return { server, runtime, userId: signedUp.data.id, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Renders a page or view inside the runtime and a fresh query client (no retries: a test sees the first answer),
 * with `load` standing in for the federation loader of its remote slots
 */
export function renderWithRuntime(
  ui: ReactNode,
  {
    runtime,
    load,
    queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } }),
  }: { runtime: KestrelRuntime; load?: RemoteComponentLoader; queryClient?: QueryClient },
) {
  const page = (
    <KestrelRuntimeProvider runtime={runtime}>
      <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>
    </KestrelRuntimeProvider>
  );
  render(load ? <RemoteLoaderProvider value={load}>{page}</RemoteLoaderProvider> : page);
  return { user: userEvent.setup(), queryClient };
}

/** Stands in for the exchange-connect remote's modal: a dialog while open */
function ConnectModalStandIn({ open }: { open: boolean }) {
  return open ? <div role="dialog" aria-label="Connect Exchange" /> : null;
}

/**
 * A stand-in of the exchange-connect remote's modal for the page's slots (`load`, its calls recorded), and the check
 * that the region's "Connect exchange" opens it through the slot
 */
export function connectModalStandIn() {
  const load = vi.fn(async () => ConnectModalStandIn as ComponentType<never>);
  return {
    load: load as unknown as RemoteComponentLoader,
    async expectOpenedFrom(user: ReturnType<typeof userEvent.setup>, region: HTMLElement): Promise<void> {
      await user.click(within(region).getByRole('button', { name: 'Connect exchange' }));
      expect(await screen.findByRole('dialog', { name: 'Connect Exchange' })).toBeTruthy();
      expect(load).toHaveBeenCalledWith('exchange_connect', './ConnectExchangeModal', { fresh: false });
    },
  };
}
