import type { BacktestDetail, BacktestSummary } from '@kestrel/contracts/backtest';
import { QueryClient } from '@tanstack/react-query';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DEFAULT_COSTS, summary } from '../../../test/fixtures';
import { renderOnPushSocket } from '../../../test/push-socket';
import { backtestKeys } from '../api/backtest-keys';
import { useBacktestNotices, useListFollowsRun } from './use-backtest-notices';

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
      costs: DEFAULT_COSTS,
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
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const running = summary('run-1', { status: 'running', progress: 0.1, metrics: null, finishedAt: null });
  const other = summary('run-0');
  queryClient.setQueryData(backtestKeys.detail('run-1'), detail(running));
  queryClient.setQueryData(backtestKeys.list(), [running, other]);
  const socket = await renderOnPushSocket('notifications/backtest', queryClient, <Notices />);
  return { ...socket, queryClient, running };
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
    const { queryClient, rerender, running } = await setup();
    const finished = detail({
      ...running,
      status: 'completed',
      progress: 1,
      metrics: summary('x').metrics,
      finishedAt: 5,
    });
    rerender(<Notices follow={finished} />);
    const row = queryClient.getQueryData<BacktestSummary[]>(backtestKeys.list())?.[0];
    expect(row).toMatchObject({ id: 'run-1', status: 'completed', progress: 1, finishedAt: 5 });
    expect(row?.metrics?.totalReturn).toBe(0.1);
  });
});
