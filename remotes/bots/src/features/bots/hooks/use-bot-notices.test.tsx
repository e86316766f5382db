// Real WebSocket server (ws) on a loopback port: the runtime's socket bus receives the pushes as in the browser
import { RuntimeConfigSchema } from '@kestrel/contracts';
import type { BotEvent } from '@kestrel/contracts/bots';
import {
  createKestrelRuntime,
  createMemoryStorage,
  type KestrelRuntime,
  type WebSocketLike,
} from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { botKeys } from '../api/bot-keys';
import { useBotNotices } from './use-bot-notices';

let server: WebSocketServer | undefined;
let runtime: KestrelRuntime | undefined;
afterEach(async () => {
  runtime?.dispose();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  runtime = undefined;
});

const BOT = '7d1c5a3e-4f7b-4c2e-9a57-0b7f3c2d1e00';

function line(n: number): BotEvent {
  return {
    id: `e${n}`,
    botId: BOT,
    kind: 'order_sent',
    message: `Buy limit ${n}`,
    data: {},
    time: 1_000 + n,
  };
}

function Notices() {
  useBotNotices();
  return null;
}

async function setup() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server = wss;
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const connected = new Promise<void>((resolve) => wss.once('connection', () => resolve()));
  const push = (params: Record<string, unknown>) => {
    for (const client of wss.clients) {
      client.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/bot', params }));
    }
  };
  const manifest = 'http://127.0.0.1:9/mf-manifest.json';
  runtime = createKestrelRuntime(
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
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(botKeys.events(BOT), [line(0)]);
  const invalidated = vi.spyOn(queryClient, 'invalidateQueries');
  const rt = runtime;
  render(
    <KestrelRuntimeProvider runtime={rt}>
      <QueryClientProvider client={queryClient}>
        <Notices />
      </QueryClientProvider>
    </KestrelRuntimeProvider>,
  );
  rt.bus.connect();
  await connected;
  await waitFor(() => expect(rt.bus.status).toBe('connected'));
  return { push, queryClient, invalidated };
}

const keysOf = (spy: { mock: { calls: unknown[][] } }) =>
  spy.mock.calls.map((call) => JSON.stringify((call[0] as { queryKey: unknown }).queryKey));

describe('bot pushes on the live socket', () => {
  it('put the lines they carry on top of the log at once, each once, and refetch the figures once per burst', async () => {
    const { push, queryClient, invalidated } = await setup();
    for (let n = 1; n <= 12; n++) push({ botId: BOT, type: 'order_sent', time: 1_000 + n, event: line(n) });
    // A line pushed twice (a reconnect replaying it) is not shown twice
    push({ botId: BOT, type: 'order_sent', time: 1_012, event: line(12) });
    await waitFor(() => expect(queryClient.getQueryData<BotEvent[]>(botKeys.events(BOT))).toHaveLength(13));
    expect(
      queryClient
        .getQueryData<BotEvent[]>(botKeys.events(BOT))
        ?.map((e) => e.id)
        .slice(0, 3),
    ).toEqual(['e12', 'e11', 'e10']);
    await waitFor(() => expect(keysOf(invalidated)).toHaveLength(3));
    expect(keysOf(invalidated).sort()).toEqual(
      [botKeys.status(BOT), botKeys.list(), botKeys.summary()].map((k) => JSON.stringify(k)).sort(),
    );
  });

  it('without a line in the push, read the log again', async () => {
    const { push, invalidated } = await setup();
    push({ botId: BOT, type: 'stopped', time: 2_000 });
    await waitFor(() => expect(keysOf(invalidated)).toContain(JSON.stringify(botKeys.events(BOT))));
  });
});
