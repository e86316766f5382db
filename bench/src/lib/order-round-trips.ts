import type { BinanceUsdmAdapter } from '@kestrel/server';

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
