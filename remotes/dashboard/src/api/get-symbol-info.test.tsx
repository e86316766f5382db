import type { SymbolInfo } from '@kestrel/contracts';
import { KestrelRuntimeProvider } from '@kestrel/shared-runtime/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { testRuntime } from '../test/runtime';
import { symbolInfoKey, useSymbolPrecisions, useSymbolsInfo } from './get-symbol-info';

const BTC: SymbolInfo = {
  symbol: 'BTCUSDT',
  status: 'TRADING',
  baseAsset: 'BTC',
  quoteAsset: 'USDT',
  pricePrecision: 2,
  quantityPrecision: 3,
  tickSize: '0.10',
  stepSize: '0.001',
  minQuantity: '0.001',
  maxQuantity: '1000',
  minNotional: '100',
  orderTypes: ['LIMIT', 'MARKET'],
};

/** The rules already cached (fresh for an hour), as after the page's first read: nothing is fetched */
function wrapper() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(symbolInfoKey('BTCUSDT'), BTC);
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
    expect(first.get('BTCUSDT')).toEqual(BTC);
    rerender();
    expect(result.current).toBe(first);
  });
});
