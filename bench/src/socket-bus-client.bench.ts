/**
 * Client side of the live socket: how much the shared runtime's bus (JSON-RPC routing + contract check of every
 * push + RxJS fan-out) costs over a bare `ws` client that only JSON-parses, both receiving the same broadcast
 * bursts from one plain `ws` server on loopback in the same run. The server end's own fan-out benchmark is separate.
 *
 *   pnpm --filter @kestrel/bench bench socket-bus-client      (BENCH_CLIENTS, BENCH_MESSAGES to change the size)
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createSocketBus, type SocketBus, type WebSocketLike } from '@kestrel/shared-runtime';
import { WebSocket, WebSocketServer } from 'ws';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20);
const ROUNDS = 3;

interface Figures {
  deliveriesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

function notice(i: number) {
  return JSON.stringify({
    jsonrpc: '2.0',
    method: 'notifications/ticker',
    params: {
      symbol: 'BTCUSDT',
      lastPrice: (65_000 + i / 10).toFixed(2),
      priceChangePercent: '1.25',
      time: performance.now(),
    },
  });
}

/** Sends MESSAGES pushes to every client and waits until each client has seen all of them */
async function burst(
  server: WebSocketServer,
  latencies: number[],
  expected: number,
  delivered: () => number,
) {
  const started = performance.now();
  for (let i = 0; i < MESSAGES; i++) {
    const frame = notice(i);
    for (const client of server.clients) client.send(frame);
  }
  while (delivered() < expected) await new Promise((resolve) => setImmediate(resolve));
  const elapsed = (performance.now() - started) / 1000;
  const sorted = latencies.slice().sort((a, b) => a - b);
  return {
    deliveriesPerSecond: expected / elapsed,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
  } satisfies Figures;
}

async function rawClients(url: string, server: WebSocketServer): Promise<Figures> {
  const latencies: number[] = [];
  let count = 0;
  const sockets = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const ws = new WebSocket(url);
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { params: { time: number } };
        latencies.push(performance.now() - frame.params.time);
        count += 1;
      });
      await new Promise((resolve) => ws.once('open', resolve));
      return ws;
    }),
  );
  const figures = await burst(server, latencies, CLIENTS * MESSAGES, () => count);
  for (const ws of sockets) ws.terminate();
  return figures;
}

async function busClients(url: string, server: WebSocketServer): Promise<Figures> {
  const latencies: number[] = [];
  let count = 0;
  const buses: SocketBus[] = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      const bus = createSocketBus({
        baseUrl: () => url,
        token: () => 'bench',
        clientId: `bench-${i}`,
        createWebSocket: (u) => new WebSocket(u) as unknown as WebSocketLike,
      });
      bus.tickers$.subscribe((t) => {
        latencies.push(performance.now() - t.time);
        count += 1;
      });
      const open = new Promise<void>((resolve) => {
        const sub = bus.status$.subscribe((s) => {
          if (s === 'connected') {
            queueMicrotask(() => sub.unsubscribe());
            resolve();
          }
        });
      });
      bus.connect();
      await open;
      return bus;
    }),
  );
  const figures = await burst(server, latencies, CLIENTS * MESSAGES, () => count);
  for (const bus of buses) bus.disconnect();
  return figures;
}

export default async function run(): Promise<void> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const waitForEmpty = async () => {
    while (server.clients.size > 0) await new Promise((resolve) => setImmediate(resolve));
  };
  console.info(`${CLIENTS} clients × ${MESSAGES} pushes per round, ${ROUNDS} rounds each, alternating`);
  const raw: Figures[] = [];
  const bus: Figures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    raw.push(await rawClients(url, server));
    await waitForEmpty();
    bus.push(await busClients(url, server));
    await waitForEmpty();
  }
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const summary = (fs: Figures[]) => ({
    deliveriesPerSecond: median(fs.map((f) => f.deliveriesPerSecond)),
    p50Ms: median(fs.map((f) => f.p50Ms)),
    p99Ms: median(fs.map((f) => f.p99Ms)),
  });
  const r = summary(raw);
  const b = summary(bus);
  const fmt = (f: Figures) =>
    `${Math.round(f.deliveriesPerSecond).toLocaleString('en')} deliveries/s, p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms`;
  console.info(`raw ws clients (reference): ${fmt(r)}`);
  console.info(`shared-runtime bus clients: ${fmt(b)}`);
  console.info(
    `ratio bus/raw: throughput ×${(b.deliveriesPerSecond / r.deliveriesPerSecond).toFixed(2)}, ` +
      `p99 latency ×${(b.p99Ms / r.p99Ms).toFixed(2)}`,
  );
  await new Promise((resolve) => server.close(resolve));
}
