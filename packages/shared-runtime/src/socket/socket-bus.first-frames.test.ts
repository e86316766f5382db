// @vitest-environment node
// A file of its own: the contracts must not be loaded yet when the first pushes arrive. The project shares one
// module graph between files, so the test imports the bus and the lazy contracts afresh after a reset
import { afterEach, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { startWsServer, type TestWsServer } from '../test/ws-server';
import type { SocketBus, WebSocketLike } from './socket-bus';

let server: TestWsServer | undefined;
let bus: SocketBus | undefined;
afterEach(async () => {
  bus?.disconnect();
  await server?.stop();
});

it('keeps every push that arrives before the contracts have loaded, in order', async () => {
  vi.resetModules();
  const { loadedContracts } = await import('../lazy-contracts');
  const { createSocketBus } = await import('./socket-bus');
  server = await startWsServer();
  bus = createSocketBus({
    baseUrl: () => server?.url ?? '',
    token: () => 'token',
    createWebSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
    clientId: 'c-1',
  });
  const prices: string[] = [];
  const done = new Promise<void>((resolve) =>
    bus?.tickers$.subscribe((t) => {
      prices.push(t.lastPrice);
      if (prices.length === 3) resolve();
    }),
  );
  const arrived = server.nextConnection();
  bus.connect();
  await arrived;
  expect(loadedContracts()).toBeUndefined();
  for (const lastPrice of ['1.0', '2.0', '3.0']) {
    server.broadcast({
      jsonrpc: '2.0',
      method: 'notifications/ticker',
      params: { symbol: 'X', lastPrice, time: 1 },
    });
  }
  await done;
  expect(prices).toEqual(['1.0', '2.0', '3.0']);
  expect(loadedContracts()).toBeDefined();
});
