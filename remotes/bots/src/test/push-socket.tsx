// Real WebSocket server (ws) on a loopback port: the runtime's socket bus receives the pushes as in the browser
import { RuntimeConfigSchema } from '@kestrel/contracts';
import {
  createKestrelRuntime,
  createMemoryStorage,
  type KestrelRuntime,
  type WebSocketLike,
} from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, expect } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';

let server: WebSocketServer | undefined;
let runtime: KestrelRuntime | undefined;
// Registered for every test file that imports this helper: each test gets its own server and runtime
afterEach(async () => {
  runtime?.dispose();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  runtime = undefined;
});

/**
 * Renders `children` (a component calling the notice hooks under test) with a runtime whose socket is connected to
 * a loopback server; `push(params)` sends a `method` notification (`notifications/bot`…) to it, as the server does
 */
export async function renderOnPushSocket(method: string, queryClient: QueryClient, children: ReactNode) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server = wss;
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const connected = new Promise<void>((resolve) => wss.once('connection', () => resolve()));
  const push = (params: Record<string, unknown>) => {
    for (const client of wss.clients) client.send(JSON.stringify({ jsonrpc: '2.0', method, params }));
  };
  const manifest = 'http://127.0.0.1:9/mf-manifest.json';
  const rt = createKestrelRuntime(
    RuntimeConfigSchema.parse({
      apiBaseUrl: 'http://127.0.0.1:9',
      socketBaseUrl: `ws://127.0.0.1:${port}/ws`,
      remotes: { dashboard: manifest, bots: manifest, exchange_connect: manifest, account: manifest },
    }),
    {
      storage: createMemoryStorage(),
      createWebSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
    },
  );
  runtime = rt;
  const wrap = (node: ReactNode) => (
    <KestrelRuntimeProvider runtime={rt}>
      <QueryClientProvider client={queryClient}>{node}</QueryClientProvider>
    </KestrelRuntimeProvider>
  );
  const view = render(wrap(children));
  rt.bus.connect();
  await connected;
  await waitFor(() => expect(rt.bus.status).toBe('connected'));
  return { push, rerender: (node: ReactNode) => view.rerender(wrap(node)) };
}
