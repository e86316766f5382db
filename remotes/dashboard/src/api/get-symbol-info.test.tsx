import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { testRuntime } from '../test/runtime';
import { BTCUSDT_INFO } from '../test/symbols';
import { symbolInfoKey, useSymbolPrecisions, useSymbolsInfo } from './get-symbol-info';

/** The rules already cached (fresh for an hour), as after the page's first read: nothing is fetched */
function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(symbolInfoKey('BTCUSDT'), BTCUSDT_INFO);
  const runtime = testRuntime();
  return ({ children }: { children: ReactNode }) => (
    <KestrelRuntimeProvider runtime={runtime}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </KestrelRuntimeProvider>
  );
}

describe('the symbol rules hooks', () => {
  it('give the decimals of each symbol, the same map on every render while the rules are unchanged', () => {
    const symbols = ['BTCUSDT'];
    const { result, rerender } = renderHook(() => useSymbolPrecisions(symbols), { wrapper: wrapper() });
    const first = result.current;
    expect(first.get('BTCUSDT')).toEqual({ price: 1, quantity: 3 });
    // A live tick re-renders the market watch every frame: a new map would rebuild its columns and remount every cell
    rerender();
    rerender();
    expect(result.current).toBe(first);
  });

  it('give the rules by symbol, the same map on every render while they are unchanged', () => {
    const symbols = ['BTCUSDT'];
    const { result, rerender } = renderHook(() => useSymbolsInfo(symbols), { wrapper: wrapper() });
    const first = result.current;
    expect(first.get('BTCUSDT')).toEqual(BTCUSDT_INFO);
    rerender();
    expect(result.current).toBe(first);
  });
});
