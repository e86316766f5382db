/**
 * Simulator order throughput over loopback HTTP: signed MARKET orders (alternating buy/sell, so every order runs
 * the full path: auth, filters, margin check, fill, position and income bookkeeping) against plain `GET ping` to the
 * same server in the same run. The ratio is the result; absolute numbers depend on the (shared) machine.
 * Requests go through node:http with a keep-alive agent, as axios-based clients (the `binance` package) send them.
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'node:http';
import { SimServer } from '@kestrel/exchange-sim';

const DURATION_MS = 3000;
const CONCURRENCY = [1, 8];

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
}

async function measure(concurrency: number, call: (i: number) => Promise<void>): Promise<Figures> {
  const latencies: number[] = [];
  const start = performance.now();
  let i = 0;
  const worker = async () => {
    while (performance.now() - start < DURATION_MS) {
      const t = performance.now();
      await call(i++);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - start;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { perSecond: (latencies.length / elapsed) * 1000, p50: at(0.5), p99: at(0.99) };
}

export default async function simOrders(): Promise<void> {
  const sim = new SimServer({
    symbols: ['BTCUSDT'],
    historyDays: 1,
    // Binance's limits would stop a benchmark after 300 orders; lift them
    rateLimits: { weightPerMinute: 1e9, ordersPer10s: 1e9, ordersPerMinute: 1e9 },
  });
  const { url } = await sim.listen(0);
  const account = sim.exchange.createAccount({ balances: { USDT: '100000000' } });

  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const call = (method: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<void>((resolve, reject) => {
      const req = request(`${url}${path}`, { method, headers, agent }, (res) => {
        const status = res.statusCode;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          status === 200
            ? resolve()
            : reject(new Error(`${method} ${path} answered ${status}: ${Buffer.concat(chunks).toString()}`)),
        );
      });
      req.on('error', reject);
      req.end();
    });
  const ping = () => call('GET', '/fapi/v1/ping');
  const order = (i: number) => {
    const query = new URLSearchParams({
      symbol: 'BTCUSDT',
      side: i % 2 === 0 ? 'BUY' : 'SELL',
      type: 'MARKET',
      quantity: '0.010',
      timestamp: String(Date.now()),
    }).toString();
    const signature = createHmac('sha256', account.secretKey).update(query).digest('hex');
    return call('POST', `/fapi/v1/order?${query}&signature=${signature}`, { 'X-MBX-APIKEY': account.apiKey });
  };

  try {
    for (const concurrency of CONCURRENCY) {
      await measure(concurrency, ping);
      const p = await measure(concurrency, ping);
      const o = await measure(concurrency, order);
      console.info(
        `concurrency ${concurrency}: ping ${p.perSecond.toFixed(0)}/s (p50 ${p.p50.toFixed(2)} ms, p99 ${p.p99.toFixed(2)} ms); ` +
          `orders ${o.perSecond.toFixed(0)}/s (p50 ${o.p50.toFixed(2)} ms, p99 ${o.p99.toFixed(2)} ms); ` +
          `order/ping throughput ratio ${(o.perSecond / p.perSecond).toFixed(2)}`,
      );
    }
  } finally {
    agent.destroy();
    await sim.close();
  }
}
