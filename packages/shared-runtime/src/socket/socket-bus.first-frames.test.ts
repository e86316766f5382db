// @vitest-environment node
// A file of its own: the contracts must not be loaded yet when the first pushes arrive (modules are per file)
import { afterEach, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { loadedContracts } from '../lazy-contracts';
import { startWsServer, type TestWsServer } from '../test/ws-server';
import { createSocketBus, type SocketBus, type WebSocketLike } from './socket-bus';

let server: TestWsServer | undefined;
let bus: SocketBus | undefined;
afterEach(async () => {
  bus?.disconnect();
  await server?.stop();
});

it('keeps every push that arrives before the contracts have loaded, in order', async () => {
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
