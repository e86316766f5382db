import { RuntimeConfigSchema } from '@kestrel/contracts';
import { startTestServer, type TestServer, type TestServerOptions } from '@kestrel/server/testing';
import { createKestrelRuntime, type KestrelRuntime, type ToastMessage } from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { MemoryRouter, Route, Routes, useLocation } from '@kestrel/shared-runtime/router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentType } from 'react';
import { expect } from 'vitest';

/**
 * A bots page against the real server (Fastify on PGlite) and the Binance simulator, signed in as a fresh user.
 * The socket is left unconnected: pages must work from REST alone (the live log is proven end to end).
 */
export interface ServerPage {
  server: TestServer;
  runtime: KestrelRuntime;
  toasts: ToastMessage[];
  close(): Promise<void>;
}

export async function startServerPage(
  email: string,
  /** The simulator's options (e.g. a clock the test moves) and parts of the app to replace */
  options: Pick<TestServerOptions, 'simulator' | 'deps' | 'env'> = {},
): Promise<ServerPage> {
  // A test file does hours of page loads in seconds: ten times Binance's weight budget on both sides, so the
  // server's per-user share of it does not answer the pages 429
  const server = await startTestServer({
    clock: 'wall',
    simulator: { rateLimits: { weightPerMinute: 24_000 }, ...options.simulator },
    env: { KESTREL_EXCHANGE_WEIGHT_LIMIT: '24000', ...options.env },
    ...(options.deps ? { deps: options.deps } : {}),
  });
  const apiBaseUrl = await server.listen();
  const unused = 'http://127.0.0.1:1/mf-manifest.json';
  const runtime = createKestrelRuntime(
    RuntimeConfigSchema.parse({
      apiBaseUrl,
      socketBaseUrl: 'ws://127.0.0.1:1/ws',
      remotes: { dashboard: unused, bots: unused, exchange_connect: unused, account: unused },
    }),
  );
  const toasts: ToastMessage[] = [];
  runtime.toasts$.subscribe((t) => toasts.push(t));
  const signedUp = await runtime.session.signUp({ email, password: 'correct horse battery staple' });
  expect(signedUp).toMatchObject({ success: true });
  return {
    server,
    runtime,
    toasts,
    close: async () => {
      runtime.dispose();
      await server.close();
    },
  };
}

/** Where the router is now ("/active-bots#bot-…"), for asserting navigation */
export const location = { current: '' };
function LocationProbe() {
  const l = useLocation();
  location.current = `${l.pathname}${l.search}${l.hash}`;
  return null;
}

/** Renders the bots pages under a memory router at `path`, so links and `navigate` move between them */
export function renderAt(
  runtime: KestrelRuntime,
  path: string,
  pages: Record<string, ComponentType>,
): { user: ReturnType<typeof userEvent.setup>; queryClient: QueryClient } {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <KestrelRuntimeProvider runtime={runtime}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          <LocationProbe />
          <Routes>
            {Object.entries(pages).map(([route, Page]) => (
              <Route key={route} path={route} element={<Page />} />
            ))}
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </KestrelRuntimeProvider>,
  );
  return { user: userEvent.setup(), queryClient };
}
