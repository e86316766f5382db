/**
 * One user cannot stall another: user B's ticker latency (GET /api/v1/market/ticker/SOLUSDT over HTTP, one at a
 * time) while user A floods the server with candle requests that each cost 10 weight (1500-bar pages, every one a
 * different size so none is served from the shared cache), printed beside B's latency with no flood in the same
 * run. The server's budget is Binance's 2400 a minute; the simulator is given far more, so what holds A back is
 * the server's own budget (A's share, then fast 429s with Retry-After), not the exchange. Goal: B's p99 < 200 ms.
 *
 *   pnpm --filter @kestrel/bench bench exchange-budget      (BENCH_REQUESTS, BENCH_FLOOD_CONNECTIONS)
 */
import { performance } from 'node:perf_hooks';
import { startTestServer } from '@kestrel/server/testing';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const FLOOD_CONNECTIONS = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 8);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

async function tickerLatencies(
  base: string,
  token: string,
): Promise<{ p50: number; p99: number; failed: number }> {
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    const res = await fetch(`${base}/api/v1/market/ticker/SOLUSDT`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200) failed += 1;
  }
  times.sort((x, y) => x - y);
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), failed };
}

export default async function run(): Promise<void> {
  const t = await startTestServer({
    simulator: {
      historyDays: 5,
      symbols: ['BTCUSDT', 'SOLUSDT'],
      rateLimits: { weightPerMinute: 1_000_000 },
    },
    env: { KESTREL_LOG_LEVEL: 'silent' },
    clock: 'wall',
  });
  try {
    const base = await t.listen();
    const a = (await t.connectedUser()).auth.access_token;
    const b = (await t.connectedUser()).auth.access_token;

    const reference = await tickerLatencies(base, b);

    let flooding = true;
    const outcomes = new Map<number, number>();
    let next = 0;
    const flooder = async () => {
      while (flooding) {
        const limit = 1001 + (next++ % 500);
        const res = await fetch(`${base}/api/v1/market/klines/BTCUSDT?interval=1m&limit=${limit}`, {
          headers: { authorization: `Bearer ${a}` },
        });
        await res.arrayBuffer();
        outcomes.set(res.status, (outcomes.get(res.status) ?? 0) + 1);
      }
    };
    const flood = Array.from({ length: FLOOD_CONNECTIONS }, flooder);
    const started = performance.now();
    const underFlood = await tickerLatencies(base, b);
    const seconds = (performance.now() - started) / 1000;
    flooding = false;
    await Promise.all(flood);

    const row = (name: string, f: { p50: number; p99: number; failed: number }) =>
      console.info(
        `${name.padEnd(34)} p50 ${f.p50.toFixed(1).padStart(7)} ms   p99 ${f.p99.toFixed(1).padStart(7)} ms   failed ${f.failed}/${REQUESTS}`,
      );
    console.info(`B's ticker, ${REQUESTS} requests one at a time`);
    row('reference (no flood)', reference);
    row(`while A floods (${FLOOD_CONNECTIONS} connections)`, underFlood);
    console.info(
      `A's candle requests in those ${seconds.toFixed(1)} s: ${[...outcomes]
        .sort(([x], [y]) => x - y)
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ')}`,
    );
    console.info(
      `p99 ratio flood/reference: ${(underFlood.p99 / reference.p99).toFixed(2)} (goal: p99 < 200 ms)`,
    );
  } finally {
    await t.close();
  }
}
