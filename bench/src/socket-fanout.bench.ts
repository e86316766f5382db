/**
 * Server end of the live socket: pushes published with `socketBus.publish('all', …)` (contract check, PostgreSQL
 * NOTIFY on PGlite, LISTEN, one serialisation, a send per socket) delivered to 1,000 connected `ws` clients on
 * loopback, beside a raw `ws` server that broadcasts the same frames to 1,000 clients in the same run. Clients and
 * servers share this process (2-core machine), identically in both cases, so the ratio is what counts.
 *
 *   pnpm --filter @kestrel/bench bench socket-fanout      (BENCH_CLIENTS, BENCH_MESSAGES to change the size)
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { openPgliteDatabase } from '@kestrel/server';
import { WebSocket, WebSocketServer } from 'ws';
import { benchApi, NO_EXCHANGE_ENV } from './lib/api';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20);
const ROUNDS = 3;
/** Each burst must finish within this, or the benchmark stops with an error rather than hang */
const BURST_LIMIT_MS = 60_000;
const USERS = 10;

interface Figures {
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;

/** 1,000 bare clients: each records the delay between the push's `time` (performance.now at publish) and arrival */
class Receivers {
  readonly sockets: WebSocket[] = [];
  latencies: number[] = [];
  delivered = 0;

  async connect(urls: string[]): Promise<void> {
    // In batches, so the handshakes do not all queue at once on a busy machine
    for (let i = 0; i < urls.length; i += 100) {
      await Promise.all(
        urls.slice(i, i + 100).map(
          (url) =>
            new Promise<void>((resolve, reject) => {
              const ws = new WebSocket(url);
              ws.on('message', (data) => {
                const frame = JSON.parse(data.toString()) as { method?: string; params?: { time?: number } };
                if (frame.method !== 'notifications/ticker' || typeof frame.params?.time !== 'number') return;
                this.latencies.push(performance.now() - frame.params.time);
                this.delivered += 1;
              });
              ws.once('open', () => resolve());
              ws.once('error', reject);
              this.sockets.push(ws);
            }),
        ),
      );
    }
  }

  reset(): void {
    this.latencies = [];
    this.delivered = 0;
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
  }
}

function ticker(i: number) {
  return { symbol: 'BTCUSDT', lastPrice: (65_000 + i / 10).toFixed(2), priceChangePercent: '1.25', time: 0 };
}

/** Runs `send` for MESSAGES pushes and waits (on the event loop, bounded) until every client has all of them */
async function burst(receivers: Receivers, send: (i: number) => unknown): Promise<Figures> {
  receivers.reset();
  const expected = MESSAGES * receivers.sockets.length;
  const started = performance.now();
  const sends: unknown[] = [];
  for (let i = 0; i < MESSAGES; i++) sends.push(send(i));
  await Promise.all(sends);
  while (receivers.delivered < expected) {
    if (performance.now() - started > BURST_LIMIT_MS) {
      throw new Error(
        `burst incomplete after ${BURST_LIMIT_MS} ms: ${receivers.delivered}/${expected} delivered`,
      );
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  const elapsed = (performance.now() - started) / 1000;
  const sorted = receivers.latencies.slice().sort((a, b) => a - b);
  return {
    deliveriesPerSecond: expected / elapsed,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
  };
}

function best(runs: Figures[]): Figures {
  return runs.reduce((a, b) => (b.deliveriesPerSecond > a.deliveriesPerSecond ? b : a));
}

async function rawWs(): Promise<Figures> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const receivers = new Receivers();
  await receivers.connect(Array.from({ length: CLIENTS }, (_, i) => `ws://127.0.0.1:${port}/c-${i}`));
  const runs: Figures[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    runs.push(
      await burst(receivers, (i) => {
        const frame = JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/ticker',
          params: { ...ticker(i), time: performance.now() },
        });
        for (const client of server.clients) client.send(frame);
      }),
    );
  }
  receivers.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return best(runs);
}

async function kestrel(): Promise<Figures> {
  const db = await openPgliteDatabase();
  const app = await benchApi(db, NO_EXCHANGE_ENV);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const tokens: string[] = [];
  for (let u = 0; u < USERS; u++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/signup',
      payload: { email: `fanout-${u}@example.test`, password: 'correct horse battery staple' },
    });
    if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.statusCode}`);
    tokens.push((res.json() as { access_token: string }).access_token);
  }
  const receivers = new Receivers();
  await receivers.connect(
    Array.from({ length: CLIENTS }, (_, i) => `ws://127.0.0.1:${port}/ws/c-${i}?token=${tokens[i % USERS]}`),
  );
  // Sockets are registered once their token is checked: wait until the server counts them all
  const started = performance.now();
  while (app.socketBus.connectionCount < CLIENTS) {
    if (performance.now() - started > BURST_LIMIT_MS) throw new Error('clients did not all authenticate');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const runs: Figures[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    runs.push(
      await burst(receivers, (i) =>
        app.socketBus.publish('all', { kind: 'ticker', data: { ...ticker(i), time: performance.now() } }),
      ),
    );
  }
  receivers.close();
  await app.close();
  await db.close();
  return best(runs);
}

const fmt = (f: Figures) =>
  `${Math.round(f.deliveriesPerSecond).toLocaleString('en-US')} deliveries/s, p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms`;

export default async function socketFanout(): Promise<void> {
  console.info(`${CLIENTS} clients, ${MESSAGES} pushes per burst, best of ${ROUNDS} bursts`);
  const reference = await rawWs();
  console.info(`raw ws broadcast (reference): ${fmt(reference)}`);
  const ours = await kestrel();
  console.info(`kestrel socketBus.publish('all'): ${fmt(ours)}`);
  console.info(
    `ratio: ${(ours.deliveriesPerSecond / reference.deliveriesPerSecond).toFixed(2)}× the reference's throughput, ` +
      `p99 ${(ours.p99Ms / reference.p99Ms).toFixed(2)}× the reference's`,
  );
}
