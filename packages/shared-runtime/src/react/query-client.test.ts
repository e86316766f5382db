// happy-dom, not node: TanStack Query never runs refetch intervals where there is no window (server rendering)
import { focusManager, onlineManager, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error';
import { createQueryClient } from './query-client';

describe('QueryClient cache policy (spec §9)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('serves data up to 5 min old from the cache, and fetches again when a page asks later', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(async () => 'data');
    const options = { queryKey: ['futures', 'positions'], queryFn };
    await client.fetchQuery(options);
    await vi.advanceTimersByTimeAsync(299_999);
    await client.fetchQuery(options);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await client.fetchQuery(options);
    expect(queryFn).toHaveBeenCalledTimes(2);
  });

  it('forgets data no page has used for 10 min', async () => {
    const client = createQueryClient();
    await client.fetchQuery({ queryKey: ['market', 'klines'], queryFn: async () => 'candles' });
    await vi.advanceTimersByTimeAsync(599_999);
    expect(client.getQueryData(['market', 'klines'])).toBe('candles');
    await vi.advanceTimersByTimeAsync(1);
    expect(client.getQueryData(['market', 'klines'])).toBeUndefined();
  });

  it('does not refetch when the window regains focus, and refetches fresh data when the network returns', async () => {
    const client = createQueryClient();
    client.mount();
    const queryFn = vi.fn(async () => 'data');
    const observer = new QueryObserver(client, { queryKey: ['account', 'balance'], queryFn });
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    onlineManager.setOnline(false);
    onlineManager.setOnline(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(2);
    unsubscribe();
    client.unmount();
    focusManager.setFocused(undefined);
  });

  it('refetches an observed query every 5 minutes', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(async () => 'data');
    const observer = new QueryObserver(client, { queryKey: ['dashboard', 'overview'], queryFn });
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(299_999);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(queryFn).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it('retries a server error fewer than 3 times, after 1 s then 2 s', async () => {
    const client = createQueryClient();
    const calls: number[] = [];
    const failing = client
      .fetchQuery({
        queryKey: ['market', 'status'],
        queryFn: async () => {
          calls.push(Date.now());
          throw new ApiError('HTTP 503: Service Unavailable', 503);
        },
      })
      .catch((e: Error) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await failing).toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(3);
    expect(calls.slice(1).map((t, i) => t - (calls[i] ?? 0))).toEqual([1_000, 2_000]);
  });

  it('caps the backoff at 30 s', () => {
    const retryDelay = createQueryClient().getDefaultOptions().queries?.retryDelay;
    expect(typeof retryDelay === 'function' && retryDelay(10, new Error('x'))).toBe(30_000);
    expect(typeof retryDelay === 'function' && retryDelay(4, new Error('x'))).toBe(16_000);
  });

  it('does not retry HTTP 4xx', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(async () => {
      throw new ApiError('Symbol is required', 422);
    });
    const failing = client.fetchQuery({ queryKey: ['futures', 'symbols'], queryFn }).catch((e: Error) => e);
    await vi.advanceTimersByTimeAsync(60_000);
    await failing;
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('retries a failed mutation once', async () => {
    const client = createQueryClient();
    const mutationFn = vi.fn(async () => {
      throw new ApiError('HTTP 500: Internal Server Error', 500);
    });
    const running = client
      .getMutationCache()
      .build(client, { mutationFn, retryDelay: 10 })
      .execute(undefined)
      .catch((e: Error) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    await running;
    expect(mutationFn).toHaveBeenCalledTimes(2);
  });
});
