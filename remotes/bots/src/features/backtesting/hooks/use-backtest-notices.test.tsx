// Real WebSocket server (ws) on a loopback port: the runtime's socket bus receives the pushes as in the browser
import { RuntimeConfigSchema } from '@kestrel/contracts';
import type { BacktestDetail, BacktestSummary } from '@kestrel/contracts/backtest';
import {
  createKestrelRuntime,
  createMemoryStorage,
  type KestrelRuntime,
  type WebSocketLike,
} from '@kestrel/shared-runtime';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { summary } from '../../../test/fixtures';
import { backtestKeys } from '../api/backtest-keys';
import { useBacktestNotices, useListFollowsRun } from './use-backtest-notices';

let server: WebSocketServer | undefined;
let runtime: KestrelRuntime | undefined;
afterEach(async () => {
  runtime?.dispose();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  runtime = undefined;
});

/** A ws server whose `push` sends a JSON-RPC notification to every connected client */
async function startServer() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server = wss;
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const address = wss.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const connected = new Promise<void>((resolve) => wss.once('connection', () => resolve()));
  const push = (params: Record<string, unknown>) => {
    for (const client of wss.clients) {
      client.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/backtest', params }));
    }
  };
  return { url: `ws://127.0.0.1:${port}/ws`, connected, push };
}

function detail(run: BacktestSummary): BacktestDetail {
  return {
    ...run,
    request: {
      strategy: run.strategy,
      params: {},
      symbol: run.symbol,
      interval: run.interval,
      startTime: run.startTime,
      endTime: run.endTime,
      costs: {
        initialBalance: 10_000,
        marginMode: 'cross',
        makerFeeRate: 0.0002,
        takerFeeRate: 0.0005,
        slippageBps: 1,
        funding: true,
      },
    },
    equity: [],
    trades: [],
    markers: [],
    bracketsSource: null,
  };
}

function Notices({ follow }: { follow?: BacktestDetail }) {
  useBacktestNotices();
  useListFollowsRun(follow);
  return null;
}

async function setup() {
  const ws = await startServer();
  const manifest = 'http://127.0.0.1:9/mf-manifest.json';
  const config = RuntimeConfigSchema.parse({
    apiBaseUrl: 'http://127.0.0.1:9',
    socketBaseUrl: ws.url,
    remotes: { dashboard: manifest, bots: manifest, exchange_connect: manifest, account: manifest },
  });
  runtime = createKestrelRuntime(config, {
    storage: createMemoryStorage(),
    createWebSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const running = summary('run-1', { status: 'running', progress: 0.1, metrics: null, finishedAt: null });
  const other = summary('run-0');
  queryClient.setQueryData(backtestKeys.detail('run-1'), detail(running));
  queryClient.setQueryData(backtestKeys.list(), [running, other]);
  const rt = runtime;
  const view = render(
    <KestrelRuntimeProvider runtime={rt}>
      <QueryClientProvider client={queryClient}>
        <Notices />
      </QueryClientProvider>
    </KestrelRuntimeProvider>,
  );
  rt.bus.connect();
  await ws.connected;
  await waitFor(() => expect(rt.bus.status).toBe('connected'));
  return { ...ws, queryClient, view, rt, running };
}

describe('backtest pushes on the live socket', () => {
  it('move the run and its list row forward without a request', async () => {
    const { push, queryClient } = await setup();
    push({ backtestId: 'run-1', status: 'running', progress: 0.55, time: 1 });
    await waitFor(() =>
      expect(queryClient.getQueryData<BacktestDetail>(backtestKeys.detail('run-1'))?.progress).toBe(0.55),
    );
    const list = queryClient.getQueryData<BacktestSummary[]>(backtestKeys.list());
    expect(list?.map((r) => [r.id, r.status, r.progress])).toEqual([
      ['run-1', 'running', 0.55],
      ['run-0', 'completed', 1],
    ]);
  });

  it('ask for the results again once the run stops, and keep its error', async () => {
    const { push, queryClient } = await setup();
    push({
      backtestId: 'run-1',
      status: 'failed',
      progress: 0.3,
      time: 2,
      error: 'The exchange has no bars',
    });
    await waitFor(() =>
      expect(queryClient.getQueryState(backtestKeys.detail('run-1'))?.isInvalidated).toBe(true),
    );
    expect(queryClient.getQueryState(backtestKeys.list())?.isInvalidated).toBe(true);
    expect(queryClient.getQueryData<BacktestDetail>(backtestKeys.detail('run-1'))).toMatchObject({
      status: 'failed',
      error: 'The exchange has no bars',
    });
  });

  it('never bring a stopped run back to running (a late progress push after Cancel)', async () => {
    const { push, queryClient } = await setup();
    push({ backtestId: 'run-1', status: 'canceled', progress: 0.2, time: 5, error: 'Canceled by the user' });
    push({ backtestId: 'run-1', status: 'running', progress: 0.21, time: 5 });
    // A marker sent after both: once it is applied, the late progress push has been seen (pushes arrive in order)
    push({ backtestId: 'run-0', status: 'failed', progress: 0.5, time: 6 });
    await waitFor(() =>
      expect(queryClient.getQueryData<BacktestSummary[]>(backtestKeys.list())?.[1]?.progress).toBe(0.5),
    );
    expect(queryClient.getQueryData<BacktestDetail>(backtestKeys.detail('run-1'))).toMatchObject({
      status: 'canceled',
      progress: 0.2,
    });
    expect(queryClient.getQueryData<BacktestSummary[]>(backtestKeys.list())?.[0]).toMatchObject({
      status: 'canceled',
      progress: 0.2,
    });
  });

  it('ignore malformed pushes', async () => {
    const { push, queryClient } = await setup();
    push({ backtestId: 'run-1', status: 'exploded', progress: 0.9, time: 3 });
    // A valid push sent after it: once it is applied, the malformed one has been seen (pushes arrive in order)
    push({ backtestId: 'run-0', status: 'completed', progress: 1, time: 4 });
    await waitFor(() => expect(queryClient.getQueryState(backtestKeys.list())?.isInvalidated).toBe(true));
    expect(queryClient.getQueryData<BacktestDetail>(backtestKeys.detail('run-1'))).toMatchObject({
      status: 'running',
      progress: 0.1,
    });
  });
});

describe('the list row follows the run on screen (polled while the socket is down)', () => {
  it('copies the finished run into its row', async () => {
    const { queryClient, view, rt, running } = await setup();
    const finished = detail({
      ...running,
      status: 'completed',
      progress: 1,
      metrics: summary('x').metrics,
      finishedAt: 5,
    });
    view.rerender(
      <KestrelRuntimeProvider runtime={rt}>
        <QueryClientProvider client={queryClient}>
          <Notices follow={finished} />
        </QueryClientProvider>
      </KestrelRuntimeProvider>,
    );
    const row = queryClient.getQueryData<BacktestSummary[]>(backtestKeys.list())?.[0];
    expect(row).toMatchObject({ id: 'run-1', status: 'completed', progress: 1, finishedAt: 5 });
    expect(row?.metrics?.totalReturn).toBe(0.1);
  });
});
