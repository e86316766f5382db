// Real WebSocket server (ws) on a loopback port: the runtime's socket bus receives the pushes as in the browser
import { RuntimeConfigSchema } from '@kestrel/contracts';
import type { AgentDecisionSummary } from '@kestrel/contracts/agents';
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
import { agentKeys } from '../api/agent-api';
import { useAgentNotices } from './use-agent-notices';

let server: WebSocketServer | undefined;
let runtime: KestrelRuntime | undefined;
afterEach(async () => {
  runtime?.dispose();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  runtime = undefined;
});

const AGENT = '7d1c5a3e-4f7b-4c2e-9a57-0b7f3c2d1e01';
const OTHER = '7d1c5a3e-4f7b-4c2e-9a57-0b7f3c2d1e02';
const BAR = Date.UTC(2026, 10, 20, 12);

function decision(n: number, agentId = AGENT): AgentDecisionSummary {
  return {
    id: String(n),
    agentId,
    barTime: BAR + n * 60_000,
    time: BAR + n * 60_000 + 61_000,
    action: 'hold',
    outcome: 'hold',
    reasonCodes: ['below_threshold'],
    sizeFraction: 0,
    pUp: 0.4,
    pDown: 0.3,
    threshold: 0.55,
    modelId: 'm1',
    stage: 'paper',
    reviewVerdict: null,
    note: 'Hold: below the threshold',
  };
}

function Notices() {
  useAgentNotices(AGENT);
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
  queryClient.setQueryData(agentKeys.decisions(AGENT), [decision(0)]);
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

const ids = (queryClient: QueryClient) =>
  queryClient.getQueryData<AgentDecisionSummary[]>(agentKeys.decisions(AGENT))?.map((d) => d.id);

describe("an agent's decision pushes", () => {
  it('put each new decision on top of the timeline once and read the status again; other bots’ pushes are ignored', async () => {
    const { push, queryClient, invalidated } = await setup();
    const notice = (d: AgentDecisionSummary) => ({
      botId: d.agentId,
      type: 'agent_decision',
      time: d.time,
      decision: d,
    });
    push(notice(decision(1)));
    // Replayed after a reconnect: not shown twice
    push(notice(decision(1)));
    push(notice(decision(2, OTHER)));
    push(notice(decision(3)));
    await waitFor(() => expect(ids(queryClient)).toEqual(['3', '1', '0']));
    expect(
      invalidated.mock.calls.every(
        (call) =>
          JSON.stringify((call[0] as { queryKey: unknown }).queryKey) ===
          JSON.stringify(agentKeys.status(AGENT)),
      ),
    ).toBe(true);
    expect(invalidated).toHaveBeenCalledTimes(3);
  });
});
