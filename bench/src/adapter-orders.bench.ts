/**
 * The adapter's order round trip on loopback (sign, POST /fapi/v1/order, bigint-safe parse) against the simulator:
 * p50/p99 of place+cancel pairs, beside a plain unsigned GET /fapi/v1/ping with fetch to the same server in the
 * same run. Wall clock, simulator time: nothing waits on the matching model.
 */
import { SimServer } from '@kestrel/exchange-sim';
import { BinanceUsdmAdapter } from '@kestrel/server';
import { orderRoundTrips, pct } from './lib/order-round-trips';

const ROUNDS = 400;

export default async function adapterOrders(): Promise<void> {
  const sim = new SimServer({
    symbols: ['SOLUSDT'],
    historyDays: 1,
    rateLimits: { weightPerMinute: 1e9, ordersPer10s: 1e9, ordersPerMinute: 1e9 },
  });
  const { url } = await sim.listen(0);
  try {
    const account = sim.exchange.createAccount({ balances: { USDT: '1000000' } });
    const keys = { apiKey: account.apiKey, secretKey: account.secretKey };
    // The client keeps Binance's order windows too (300 per 10 s): 400 rounds would meet them, and this bench
    // measures the round trip, not the limiter, so both sides' limits are lifted alike
    const adapter = new BinanceUsdmAdapter({
      restUrl: url,
      walletUrl: url,
      weightLimit: 1e9,
      budget: { ordersPer10s: 1e9, ordersPerMinute: 1e9 },
    });
    await adapter.syncTime();
    const ticker = await adapter.ticker('SOLUSDT');
    // Far below the market: rests, never fills
    const price = (Math.floor(Number(ticker.lastPrice) / 2 / 0.01) * 0.01).toFixed(2);

    const { place, cancel } = await orderRoundTrips(
      adapter,
      keys,
      { symbol: 'SOLUSDT', quantity: '1', price },
      ROUNDS,
    );
    const ping: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      await (await fetch(`${url}/fapi/v1/ping`)).text();
      ping.push(performance.now() - t0);
    }
    ping.sort((x, y) => x - y);
    const f = (ms: number) => `${ms.toFixed(2)} ms`;
    console.info(`${ROUNDS} rounds on loopback`);
    console.info(`  adapter placeOrder   p50 ${f(pct(place, 0.5))}  p99 ${f(pct(place, 0.99))}`);
    console.info(`  adapter cancelOrder  p50 ${f(pct(cancel, 0.5))}  p99 ${f(pct(cancel, 0.99))}`);
    console.info(`  plain GET ping       p50 ${f(pct(ping, 0.5))}  p99 ${f(pct(ping, 0.99))}`);
    console.info(
      `  placeOrder / ping ratio: p50 ${(pct(place, 0.5) / pct(ping, 0.5)).toFixed(2)}x, ` +
        `p99 ${(pct(place, 0.99) / pct(ping, 0.99)).toFixed(2)}x`,
    );
  } finally {
    await sim.close();
  }
}
