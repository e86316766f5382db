/**
 * How fast a signal trades: a TradingView-style alert POSTed over HTTP to a live webhook-signal bot's URL in the real
 * server (PGlite) on the simulator → its market order acknowledged by the simulator (the adapter's `placeOrder`
 * answered), and → the POST answered (the order's outcome in it), p50/p99, beside the adapter's bare place-order
 * round trip to the same simulator in the same run (the reference). Each round alternates a buy (one order) and a
 * close (one order), so every signal sends exactly one order. The simulator's and the server's request budgets are
 * lifted, and the per-bot limit of 30 signals a minute is kept by moving the simulated clock on
 */
import { createHmac } from 'node:crypto';
import { ManualClock } from '@kestrel/exchange-sim';
import { bearer, clockReading, SIM_START, startTestServer } from '@kestrel/server/testing';
import { bareOrderRoundTrips, pct } from './lib/order-round-trips';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const BARE_ROUNDS = 200;

export default async function signalOrder(): Promise<void> {
  const simClock = new ManualClock(SIM_START);
  const clock = clockReading(() => new Date(simClock.now()));
  const unlimited = { weightPerMinute: 1e9, ordersPer10s: 1e9, ordersPerMinute: 1e9 };
  const t = await startTestServer({
    simulator: { clock: simClock, historyDays: 1, symbols: ['BTCUSDT'], rateLimits: unlimited },
    env: { KESTREL_EXCHANGE_WEIGHT_LIMIT: '100000000' },
    deps: { clock, botLeaseRenewMs: 3_600_000, orderTimings: { deadmanCountdownMs: 3_600_000 } },
  });
  try {
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    const base = await t.listen();
    const acks: number[] = [];
    const adapter = t.app.exchangeAdapter;
    const place = adapter.placeOrder.bind(adapter);
    adapter.placeOrder = async (keys, order) => {
      const placed = await place(keys, order);
      acks.push(performance.now());
      return placed;
    };

    const { auth } = await t.connectedUser();
    const headers = bearer(auth.access_token);
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/agents/',
      headers,
      payload: {
        name: 'Bench signals',
        strategy: 'webhook-signal',
        params: { positionFraction: 0.5 },
        symbol: 'BTCUSDT',
        interval: '1m',
        leverage: 3,
        budget: 500,
        mode: 'live',
      },
    });
    if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
    const botId = created.json().data.id as string;
    const started = await t.request({ method: 'POST', url: `/api/v1/agents/${botId}/start`, headers });
    if (started.statusCode !== 200) throw new Error(`start: ${started.statusCode} ${started.body}`);
    const made = await t.request({ method: 'POST', url: `/api/v1/agents/${botId}/signal-hook`, headers });
    if (made.statusCode !== 201) throw new Error(`hook: ${made.statusCode} ${made.body}`);
    const { hook, secret } = made.json().data as { hook: { path: string }; secret: string };

    const toAck: number[] = [];
    const toAnswer: number[] = [];
    const signed: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      // Two seconds of the exchange's time a signal: 30 a minute, the per-bot limit
      simClock.advance(2_000);
      const body = JSON.stringify({
        id: `bench-${i}`,
        action: i % 2 === 0 ? 'buy' : 'close',
        symbol: 'BTCUSDT.P',
        time: new Date(simClock.now()).toISOString(),
        // Every fourth one signed instead of carrying the secret
        ...(i % 4 === 3 ? {} : { secret }),
      });
      const sign = i % 4 === 3;
      const before = acks.length;
      const t0 = performance.now();
      const r = await fetch(`${base}${hook.path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(sign
            ? { 'x-kestrel-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` }
            : {}),
        },
        body,
      });
      const answered = performance.now();
      const json = (await r.json()) as { data?: { signal?: { outcome?: string } } };
      if (r.status !== 200 || json.data?.signal?.outcome !== 'acted')
        throw new Error(`signal ${i}: ${r.status} ${JSON.stringify(json)}`);
      if (acks.length !== before + 1) throw new Error(`signal ${i} sent ${acks.length - before} orders`);
      toAck.push((acks[before] as number) - t0);
      (sign ? signed : toAnswer).push(answered - t0);
    }
    adapter.placeOrder = place;
    await t.request({ method: 'POST', url: `/api/v1/agents/${botId}/stop`, headers });

    const round = await bareOrderRoundTrips(t, BARE_ROUNDS);
    for (const list of [toAck, toAnswer, signed]) list.sort((a, b) => a - b);

    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    const line = (name: string, s: number[]) =>
      `  ${name.padEnd(40)} n ${String(s.length).padStart(4)}  p50 ${f(pct(s, 0.5))}  p99 ${f(pct(s, 0.99))}`;
    console.info(`signal POST (HTTP, loopback) → a live webhook-signal bot's order, ${ROUNDS} signals`);
    console.info(line('adapter place-order (reference)', round));
    console.info(line('POST → order acknowledged', toAck));
    console.info(line('POST → answered (secret in the body)', toAnswer));
    console.info(line('POST → answered (HMAC-signed)', signed));
    const ratio = (s: number[], p: number) => (pct(s, p) / pct(round, p)).toFixed(1);
    console.info(`  order acknowledged / reference: p50 ${ratio(toAck, 0.5)}x, p99 ${ratio(toAck, 0.99)}x`);
  } finally {
    await t.close();
  }
}
