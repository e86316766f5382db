/**
 * The live path end to end: an order event emitted by the simulator → the adapter's user-data stream → the
 * live-streams producer → the socket bus (contract check, NOTIFY on PGlite, LISTEN) → the server's socket → the
 * shared runtime's bus client (`orders$`). Printed beside two references measured in the same run on the same
 * machine: a bare `ws` client on the simulator's own private stream (the exchange hop alone), and a `tools/call`
 * round trip on the same live socket (the browser ↔ server hop, there and back).
 *
 * Then candles: a closing 1m bar ticked by the simulator → its kline stream → the live-streams producer (closing
 * bars skip the 4/s throttle of forming ones) → the bus client's `candles$`.
 *
 *   pnpm --filter @kestrel/bench bench live-push      (BENCH_ORDERS, BENCH_CANDLES to change the sizes)
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ManualClock, SimServer } from '@kestrel/exchange-sim';
import { BinanceUsdmAdapter, openPgliteDatabase } from '@kestrel/server';
import { createSocketBus, type WebSocketLike } from '@kestrel/shared-runtime';
import { WebSocket } from 'ws';
import { benchApi } from './lib/api';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 200);
const CANDLES = Number(process.env.BENCH_CANDLES ?? 100);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
const fmt = (xs: number[]) => {
  const s = xs.slice().sort((a, b) => a - b);
  return { p50: percentile(s, 0.5), p99: percentile(s, 0.99) };
};

export default async function run(): Promise<void> {
  // A manual clock: no background ticks, so nothing but our orders moves through the streams
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12));
  const sim = new SimServer({
    clock,
    historyDays: 2,
    symbols: ['SOLUSDT'],
  });
  const { url, wsUrl } = await sim.listen(0);
  const account = sim.exchange.createAccount({ balances: { USDT: '1000000' } });
  const keys = { apiKey: account.apiKey, secretKey: account.secretKey };

  /** When the simulator emitted each order's NEW event, by client order id */
  const emitted = new Map<string, number>();
  sim.exchange.onUserEvent((_id, event) => {
    if (event.e === 'ORDER_TRADE_UPDATE' && event.o.x === 'NEW')
      emitted.set(String(event.o.c), performance.now());
  });

  const db = await openPgliteDatabase();
  const app = await benchApi(db, {
    KESTREL_LOG_LEVEL: 'warn',
    KESTREL_EXCHANGE_BASE_URL: url,
    KESTREL_LIVE_SYMBOLS: 'SOLUSDT',
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  const signup = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    payload: { email: 'bench-live@example.test', password: 'correct horse battery staple' },
  });
  const auth = signup.json() as { access_token: string; user: { id: string } };
  await app.inject({
    method: 'POST',
    url: '/api/v1/credentials/binance',
    headers: { authorization: `Bearer ${auth.access_token}` },
    payload: { api_key: keys.apiKey, secret_key: keys.secretKey },
  });

  const bus = createSocketBus({
    baseUrl: () => `ws://127.0.0.1:${port}/ws`,
    token: () => auth.access_token,
    createWebSocket: (u) => new WebSocket(u) as unknown as WebSocketLike,
  });
  const viaKestrel = new Map<string, number>();
  bus.orders$.subscribe((o) => {
    if (o.clientOrderId && o.status === 'NEW') viaKestrel.set(o.clientOrderId, performance.now());
  });
  await bus.callTool('get_server_status');
  await app.liveStreams?.whenUserStreamOpen(auth.user.id);

  // Reference 1: the simulator's private stream read by a bare ws client
  const listenKey = sim.listenKeys.open(account, sim.exchange.clock.now());
  const raw = new WebSocket(`${wsUrl}/private/ws/${listenKey}`);
  const viaRaw = new Map<string, number>();
  raw.on('message', (data) => {
    const m = JSON.parse(data.toString()) as { e?: string; o?: { x?: string; c?: string } };
    if (m.e === 'ORDER_TRADE_UPDATE' && m.o?.x === 'NEW' && m.o.c) viaRaw.set(m.o.c, performance.now());
  });
  await new Promise((resolve) => raw.once('open', resolve));

  // Resting orders far below the market: one NEW event each, nothing fills
  const adapter = new BinanceUsdmAdapter({ restUrl: url });
  const roundTrips: number[] = [];
  for (let i = 0; i < ORDERS; i++) {
    const id = `bench-${i}`;
    await adapter.placeOrder(keys, {
      symbol: 'SOLUSDT',
      side: 'BUY',
      type: 'LIMIT',
      quantity: '1',
      price: '10.00',
      clientOrderId: id,
    });
    while (!viaKestrel.has(id) || !viaRaw.has(id)) await new Promise((resolve) => setImmediate(resolve));
    // Reference 2: one tools/call there and back on the same live socket
    const t0 = performance.now();
    await bus.callTool('get_server_status');
    roundTrips.push(performance.now() - t0);
  }

  const lat = (arrived: Map<string, number>) =>
    [...arrived].map(([id, at]) => at - (emitted.get(id) ?? Number.NaN)).filter(Number.isFinite);
  const push = fmt(lat(viaKestrel));
  const exchangeHop = fmt(lat(viaRaw));
  const rt = fmt(roundTrips);
  const line = (f: { p50: number; p99: number }) => `p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms`;
  console.info(`${ORDERS} order events, one at a time`);
  console.info(`simulator → bare ws client on its private stream (reference): ${line(exchangeHop)}`);
  console.info(`live socket tools/call round trip (reference):                ${line(rt)}`);
  console.info(`simulator → Kestrel → browser bus client (orders$):          ${line(push)}`);
  console.info(
    `ratio push/bare exchange stream: p50 ×${(push.p50 / exchangeHop.p50).toFixed(2)}, p99 ×${(push.p99 / exchangeHop.p99).toFixed(2)}; ` +
      `Kestrel's own hops add p50 ${(push.p50 - exchangeHop.p50).toFixed(2)} ms`,
  );

  // Candles: wait for the upstream kline stream, then one closing bar at a time
  const closedAt = new Map<number, number>();
  bus.candles$.subscribe((c) => {
    if (c.closed) closedAt.set(c.openTime, performance.now());
  });
  await bus.subscribe({ streams: ['candle'], candles: [{ symbol: 'SOLUSDT', interval: '1m' }] });
  while (closedAt.size === 0) {
    clock.set(clock.now() + 60_000);
    sim.tick();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const candleLatency: number[] = [];
  for (let i = 0; i < CANDLES; i++) {
    const barOpen = clock.now(); // on a minute boundary: this bar closes at the next tick
    clock.set(barOpen + 60_000);
    const t0 = performance.now();
    sim.tick();
    while (!closedAt.has(barOpen)) await new Promise((resolve) => setImmediate(resolve));
    candleLatency.push((closedAt.get(barOpen) ?? Number.NaN) - t0);
  }
  console.info(`${CANDLES} closing 1m candles, one at a time`);
  console.info(`simulator tick → Kestrel → browser bus client (candles$):     ${line(fmt(candleLatency))}`);

  raw.terminate();
  bus.disconnect();
  await app.close();
  await db.close();
  await sim.close();
}
