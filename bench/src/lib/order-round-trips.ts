import { BinanceUsdmAdapter } from '@kestrel/server';
import type { TestServer } from '@kestrel/server/testing';

/** The value at fraction `p` of an ascending list (p50: 0.5) */
export const pct = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * The adapter's bare order round trip: `rounds` times a limit buy of `quantity` at `price` (far from the market:
 * it rests) placed and canceled, each call timed. Both lists sorted ascending
 */
export async function orderRoundTrips(
  adapter: BinanceUsdmAdapter,
  keys: { apiKey: string; secretKey: string },
  order: { symbol: string; quantity: string; price: string },
  rounds: number,
): Promise<{ place: number[]; cancel: number[] }> {
  const place: number[] = [];
  const cancel: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const placed = await adapter.placeOrder(keys, { ...order, side: 'BUY', type: 'LIMIT' });
    const t1 = performance.now();
    await adapter.cancelOrder(keys, order.symbol, { orderId: placed.orderId });
    cancel.push(performance.now() - t1);
    place.push(t1 - t0);
  }
  return { place: place.sort((a, b) => a - b), cancel: cancel.sort((a, b) => a - b) };
}

/**
 * The reference of the server benches: a bare adapter (its own, budgets lifted) placing and canceling a resting
 * BTCUSDT buy far below the market on the test server's simulator, `rounds` times, each place timed. Sorted ascending
 */
export async function bareOrderRoundTrips(t: TestServer, rounds: number): Promise<number[]> {
  const bare = new BinanceUsdmAdapter({
    restUrl: t.simUrl,
    walletUrl: t.simUrl,
    weightLimit: 1e9,
    budget: { ordersPer10s: 1e9, ordersPerMinute: 1e9 },
  });
  await bare.syncTime();
  const { place } = await orderRoundTrips(
    bare,
    t.demoKeys(),
    { symbol: 'BTCUSDT', quantity: '0.004', price: '25000' },
    rounds,
  );
  return place;
}
