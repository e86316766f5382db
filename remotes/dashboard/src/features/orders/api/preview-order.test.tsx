import type { CreateOrderRequest, OrderPreview } from '@kestrel/contracts';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testRuntime } from '../../../test/runtime';
import { PREVIEW_DEBOUNCE_MS, useOrderPreview } from './preview-order';

const order = (quantity: string): CreateOrderRequest => ({
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTC',
  quantity,
  price: '50000',
});

const preview = (quantity: string): OrderPreview => ({
  symbol: 'BTCUSDT',
  price: '50000',
  notional: String(50_000 * Number(quantity)),
  initialMargin: '100',
  marginType: 'cross',
  leverage: 5,
  positionAfter: quantity,
  liquidationPrice: null,
  availableBalance: '1000',
  bracketsSource: 'exchange',
});

/**
 * The ticket's estimate waits for typing to pause PREVIEW_DEBOUNCE_MS (400 ms) and then asks the server once, for
 * the figures as they stand. The network is the only thing replaced: the real runtime and its API client send it
 */
describe('useOrderPreview', () => {
  const asked: string[] = [];
  beforeEach(() => {
    vi.useFakeTimers();
    asked.length = 0;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      expect(String(url)).toMatch(/\/api\/futures\/orders\/preview$/);
      const body = JSON.parse(String(init.body)) as CreateOrderRequest;
      asked.push(body.quantity ?? '');
      return new Response(
        JSON.stringify({ success: true, data: preview(body.quantity ?? '0'), message: 'ok' }),
        {
          status: 200,
          headers: { 'content-type': 'application/json' },
        },
      );
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('asks once typing has paused 400 ms, for the last figures typed', async () => {
    expect(PREVIEW_DEBOUNCE_MS).toBe(400);
    const runtime = testRuntime();
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <KestrelRuntimeProvider runtime={runtime}>
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      </KestrelRuntimeProvider>
    );
    // Nothing to estimate until a quantity is typed
    const { result, rerender } = renderHook(
      ({ o }: { o: CreateOrderRequest | undefined }) => useOrderPreview(o),
      { wrapper, initialProps: { o: undefined as CreateOrderRequest | undefined } },
    );
    // Typed one key every 150 ms: each keystroke starts the wait again
    for (const quantity of ['0.0', '0.00', '0.002', '0.0025']) {
      await act(() => vi.advanceTimersByTimeAsync(150));
      rerender({ o: order(quantity) });
    }
    await act(() => vi.advanceTimersByTimeAsync(PREVIEW_DEBOUNCE_MS - 1));
    expect(asked).toEqual([]);
    expect(result.current.data).toBeUndefined();
    await act(() => vi.advanceTimersByTimeAsync(1));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(asked).toEqual(['0.0025']);
    expect(result.current.data?.notional).toBe('125');
    runtime.dispose?.();
  });
});
