/**
 * One user cannot stall another: user B's ticker latency (GET /api/v1/market/ticker/SOLUSDT over HTTP, one at a
 * time) while user A floods the server with candle requests that each cost 10 weight (1500-bar pages, every one a
 * different size so none is served from the shared cache), printed beside B's latency with no flood in the same
 * run. The server's budget is Binance's 2400 a minute; the simulator (its own process) is given far more, so what holds A back is
 * the server's own budget (A's share, then fast 429s with Retry-After), not the exchange. Goal: B's p99 < 200 ms.
 *
 *   pnpm --filter @kestrel/bench bench exchange-budget      (BENCH_REQUESTS, BENCH_FLOOD_CONNECTIONS)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { bearer, buildTestApp, listenLoopback, openTestDatabase, signUp } from '@kestrel/server/testing';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The simulator in a process of its own (as Binance is elsewhere): its work building 1500-bar pages does not land
 * on the server's event loop. Wall clock, a weight limit far above the server's
 */
/** The simulator CLI always guards `/_sim` with a token: this run's own */
const SIM_ADMIN_TOKEN = randomBytes(16).toString('hex');

async function startSimulator(): Promise<{ url: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(here, '../../packages/exchange-sim/src/cli.ts'),
      '--port',
      '0',
      '--history-days',
      '5',
      '--symbols',
      'BTCUSDT,SOLUSDT',
      '--weight-limit',
      '1000000',
      '--admin-token',
      SIM_ADMIN_TOKEN,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      const found = /REST (http:\/\/\S+)/.exec(out);
      if (found?.[1]) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code}) before listening`)));
  });
  return { url, stop: () => child.kill() };
}

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
/** A's parallel connections, one flood per figure (comma list) */
const FLOOD_CONNECTIONS = (process.env.BENCH_FLOOD_CONNECTIONS ?? '1,8').split(',').map(Number);

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
  const sim = await startSimulator();
  const database = await openTestDatabase();
  const t = await buildTestApp(
    database.db,
    {},
    {
      KESTREL_EXCHANGE_ENV: 'simulator',
      KESTREL_EXCHANGE_BASE_URL: sim.url,
      KESTREL_LOG_LEVEL: 'silent',
    },
  );
  /** A signed-up user with a fresh simulator account's keys stored */
  const connectedUser = async (): Promise<string> => {
    const auth = await signUp(t);
    const created = await fetch(`${sim.url}/_sim/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sim-admin-token': SIM_ADMIN_TOKEN },
      body: JSON.stringify({ balances: { USDT: '1000' } }),
    });
    const keys = (await created.json()) as { apiKey: string; secretKey: string };
    const stored = await t.request({
      method: 'POST',
      url: '/api/v1/credentials/binance',
      headers: bearer(auth.access_token),
      payload: { api_key: keys.apiKey, secret_key: keys.secretKey },
    });
    if (stored.statusCode !== 201)
      throw new Error(`storing keys failed: ${stored.statusCode} ${stored.body}`);
    return auth.access_token;
  };
  try {
    const base = await listenLoopback(t.app);
    const a = await connectedUser();
    const b = await connectedUser();

    const reference = await tickerLatencies(base, b);

    const row = (name: string, f: { p50: number; p99: number; failed: number }) =>
      console.info(
        `${name.padEnd(34)} p50 ${f.p50.toFixed(1).padStart(7)} ms   p99 ${f.p99.toFixed(1).padStart(7)} ms   failed ${f.failed}/${REQUESTS}`,
      );
    console.info(`B's ticker, ${REQUESTS} requests one at a time`);
    row('reference (no flood)', reference);
    for (const connections of FLOOD_CONNECTIONS) {
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
      const flood = Array.from({ length: connections }, flooder);
      const started = performance.now();
      const underFlood = await tickerLatencies(base, b);
      const seconds = (performance.now() - started) / 1000;
      flooding = false;
      await Promise.all(flood);
      row(`while A floods (${connections} connection${connections > 1 ? 's' : ''})`, underFlood);
      console.info(
        `  A's candle requests meanwhile (${seconds.toFixed(1)} s): ${[...outcomes]
          .sort(([x], [y]) => x - y)
          .map(([status, n]) => `${n} × ${status}`)
          .join(
            ', ',
          )}; p99 ratio to reference ${(underFlood.p99 / reference.p99).toFixed(2)} (goal: p99 < 200 ms)`,
      );
    }
  } finally {
    await t.app.close();
    await database.cleanup();
    sim.stop();
  }
}
