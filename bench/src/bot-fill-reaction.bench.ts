/**
 * How fast live bots answer their fills, in the real server (PGlite) on the simulator: a fill on the simulator →
 * the bot's counter-order acknowledged by the simulator (the adapter's `placeOrder` answered), p50/p99. Each bot
 * is a grid on its own account; every round moves the price across one level, so every bot has one fill to answer
 * with one order. Measured with 1 live bot, then with `BENCH_BOTS` (50) on the same instance, beside the adapter's
 * bare place-order round trip to the same simulator in the same run (the reference: the goal is a p99 within 3×
 * of it). Also prints Start → the bot's first order acknowledged.
 *
 * Then capacity: CPU (of one core, the simulator in the same process included), memory and the event loop's delay
 * while the 50 live bots answer their fills, and while `BENCH_PAPER` paper grids (50, then 200) walk forming candles
 * pushed four times a second with the price crossing a level at each: how many of the fills due were logged in time.
 *
 * The simulator's and the server's request budgets are lifted: this measures the bots, not the rate limiters.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ManualClock } from '@kestrel/exchange-sim';
import { bearer, clockReading, SIM_START, startTestServer } from '@kestrel/server/testing';
import { bareOrderRoundTrips, pct } from './lib/order-round-trips';

const BOTS = Number(process.env.BENCH_BOTS ?? 50);
// Enough rounds that p99 is not the one slowest sample (with 1 bot, 100 samples)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
/** Paper bots run at once in the capacity part, each step of the list */
const PAPER = (process.env.BENCH_PAPER ?? '50,200').split(',').map(Number);
/** How long each capacity phase runs with prices flowing (wall seconds) */
const CAPACITY_SECONDS = Number(process.env.BENCH_CAPACITY_SECONDS ?? 10);
const BARE_ROUNDS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export default async function botFillReaction(): Promise<void> {
  const simClock = new ManualClock(SIM_START);
  const clock = clockReading(() => new Date(simClock.now()));
  const unlimited = { weightPerMinute: 1e9, ordersPer10s: 1e9, ordersPerMinute: 1e9 };
  const t = await startTestServer({
    simulator: { clock: simClock, historyDays: 1, symbols: ['BTCUSDT'], rateLimits: unlimited },
    env: { KESTREL_EXCHANGE_WEIGHT_LIMIT: '100000000', KESTREL_SIGNUPS_PER_IP_HOUR: '1000' },
    deps: { clock, botLeaseRenewMs: 3_600_000, orderTimings: { deadmanCountdownMs: 3_600_000 } },
  });
  try {
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });

    // Every order the server sends, stamped when the simulator acknowledged it, by the account that sent it
    const acks = new Map<string, number[]>();
    const adapter = t.app.exchangeAdapter;
    const place = adapter.placeOrder.bind(adapter);
    adapter.placeOrder = async (keys, order) => {
      const placed = await place(keys, order);
      const list = acks.get(keys.apiKey) ?? [];
      list.push(performance.now());
      acks.set(keys.apiKey, list);
      return placed;
    };

    /** A grid bot (10 levels 49,000–51,000, live or paper) of the user signed in with `headers`, stopped: its id */
    const createGrid = async (headers: ReturnType<typeof bearer>, name: string, mode: 'live' | 'paper') => {
      const created = await t.request({
        method: 'POST',
        url: '/api/v1/agents/',
        headers,
        payload: {
          name,
          strategy: 'grid',
          params: { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.003 },
          symbol: 'BTCUSDT',
          interval: '1m',
          leverage: 5,
          budget: 500,
          mode,
        },
      });
      if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
      return created.json().data.id as string;
    };
    /** A user with a live grid on an account of its own, stopped */
    const makeBot = async (n: number) => {
      const { auth, keys } = await t.connectedUser();
      const headers = bearer(auth.access_token);
      return { id: await createGrid(headers, `Bench grid ${n}`, 'live'), headers, apiKey: keys.apiKey };
    };
    type BenchBot = Awaited<ReturnType<typeof makeBot>>;
    const until = async (what: string, done: () => boolean, ms = 30_000) => {
      const end = performance.now() + ms;
      while (!done()) {
        if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
        await sleep(2);
      }
    };

    /** Start → its grid's first order acknowledged, then until all 10 stand */
    const startToFirst: number[] = [];
    const start = async (bot: BenchBot) => {
      const before = acks.get(bot.apiKey)?.length ?? 0;
      const t0 = performance.now();
      const r = await t.request({
        method: 'POST',
        url: `/api/v1/agents/${bot.id}/start`,
        headers: bot.headers,
      });
      if (r.statusCode !== 200) throw new Error(`start: ${r.statusCode} ${r.body}`);
      await until('the grid', () => (acks.get(bot.apiKey)?.length ?? 0) >= before + 10);
      startToFirst.push((acks.get(bot.apiKey)?.[before] as number) - t0);
    };

    /** `rounds` moves across the 49,800 / 50,000 pair of levels: each bot answers its fill with one order */
    let down = true;
    const run = async (bots: BenchBot[], rounds: number): Promise<number[]> => {
      const samples: number[] = [];
      for (let i = 0; i < rounds; i++) {
        const before = new Map(bots.map((b) => [b.apiKey, acks.get(b.apiKey)?.length ?? 0]));
        // A tenth of a second of the exchange's time a round: the server counts each account's orders per 10 s
        // of it (Binance's 300), which a clock standing still would fill up
        simClock.advance(100);
        const t0 = performance.now();
        t.sim.exchange.setPrice('BTCUSDT', { price: down ? '49750' : '50050' });
        down = !down;
        await until('every answer', () =>
          bots.every((b) => (acks.get(b.apiKey)?.length ?? 0) > (before.get(b.apiKey) ?? 0)),
        );
        for (const b of bots) samples.push((acks.get(b.apiKey)?.[before.get(b.apiKey) ?? 0] as number) - t0);
        // Let the round settle (status writes, log lines) before the next move
        await sleep(50);
      }
      return samples.sort((a, b) => a - b);
    };

    /** CPU share of a core, memory and event-loop delay over `fn` */
    const measured = async <T>(fn: () => Promise<T>) => {
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      const cpu0 = process.cpuUsage();
      const wall0 = performance.now();
      const result = await fn();
      const cpu = process.cpuUsage(cpu0);
      const wall = performance.now() - wall0;
      lag.disable();
      const mem = process.memoryUsage();
      return {
        result,
        words:
          `CPU ${((cpu.user + cpu.system) / 1000 / wall).toFixed(2)} of a core, RSS ${(mem.rss / 2 ** 20).toFixed(0)} MB, ` +
          `heap ${(mem.heapUsed / 2 ** 20).toFixed(0)} MB, event-loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms`,
      };
    };
    const idle = await measured(() => sleep(1000));

    const first = await makeBot(0);
    await start(first);
    const one = await run([first], ROUNDS);
    const rest: BenchBot[] = [];
    for (let n = 1; n < BOTS; n++) rest.push(await makeBot(n));
    // The others start on a market back at 50,000, as the first did
    if (!down) {
      t.sim.exchange.setPrice('BTCUSDT', { price: '50050' });
      down = true;
    }
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    for (const b of rest) await start(b);
    t.sim.exchange.setPrice('BTCUSDT', { price: '50050' });
    const liveLoad = await measured(() => run([first, ...rest], ROUNDS));
    const many = liveLoad.result;
    adapter.placeOrder = place;
    for (const b of [first, ...rest]) {
      await t.request({ method: 'POST', url: `/api/v1/agents/${b.id}/stop`, headers: b.headers });
    }

    // Paper grids on live prices: each forming candle (four a second) crosses a level, so each bot has a fill due
    // One owner per 50 paper bots: the most one user may keep
    const owners: ReturnType<typeof bearer>[] = [];
    const ownerOf = async (n: number) => {
      const k = Math.floor(n / 50);
      owners[k] ??= bearer((await t.connectedUser()).auth.access_token);
      return owners[k] as ReturnType<typeof bearer>;
    };
    const paperRuns: { bots: number; words: string; due: number; logged: number }[] = [];
    let paperMade = 0;
    const paperIds: string[] = [];
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });
    for (const target of PAPER) {
      for (; paperMade < target; paperMade++) {
        const owner = await ownerOf(paperMade);
        const id = await createGrid(owner, `Bench paper ${paperMade}`, 'paper');
        paperIds.push(id);
        await t.request({ method: 'POST', url: `/api/v1/agents/${id}/start`, headers: owner });
      }
      const filled = async () => {
        const rows = await t.app.db.query<{ n: string | number }>(
          `SELECT count(*) AS n FROM bot_events WHERE kind = 'order_filled' AND bot_id = ANY($1::uuid[])`,
          [paperIds],
        );
        return Number(rows[0]?.n ?? 0);
      };
      await sleep(500);
      const before = await filled();
      let ticks = 0;
      const load = await measured(async () => {
        const end = performance.now() + CAPACITY_SECONDS * 1000;
        while (performance.now() < end) {
          t.sim.exchange.setPrice('BTCUSDT', { price: down ? '49750' : '50050' });
          down = !down;
          simClock.advance(1000);
          t.sim.tick();
          ticks++;
          await sleep(250);
        }
      });
      // What is logged within a second of the last price is in time; the rest is the backlog
      await sleep(1000);
      paperRuns.push({
        bots: target,
        words: load.words,
        due: target * ticks,
        logged: (await filled()) - before,
      });
    }

    // The reference: the adapter's bare place-order round trip to the same simulator, an order far below the market
    const round = await bareOrderRoundTrips(t, BARE_ROUNDS);
    startToFirst.sort((a, b) => a - b);

    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    const line = (name: string, s: number[]) =>
      `  ${name.padEnd(34)} n ${String(s.length).padStart(4)}  p50 ${f(pct(s, 0.5))}  p99 ${f(pct(s, 0.99))}`;
    console.info(`simulator fill → the bot's counter-order acknowledged, ${ROUNDS} rounds`);
    console.info(line('adapter place-order (reference)', round));
    console.info(line('1 live bot', one));
    console.info(line(`${BOTS} live bots on one instance`, many));
    console.info(line('Start → first order acknowledged', startToFirst));
    const ratio = (s: number[], p: number) => (pct(s, p) / pct(round, p)).toFixed(1);
    console.info(`  1 bot / reference: p50 ${ratio(one, 0.5)}x, p99 ${ratio(one, 0.99)}x (goal: p99 ≤ 3x)`);
    console.info(`  ${BOTS} bots / reference: p50 ${ratio(many, 0.5)}x, p99 ${ratio(many, 0.99)}x`);
    console.info('capacity (one instance; the simulator runs in the same process)');
    console.info(`  idle server:                      ${idle.words}`);
    console.info(`  ${BOTS} live bots answering fills:    ${liveLoad.words}`);
    for (const r of paperRuns) {
      console.info(
        `  ${String(r.bots).padStart(3)} paper bots, 4 prices/s:      ${r.words}; fills logged ${r.logged} of ${r.due} due (${((100 * r.logged) / Math.max(1, r.due)).toFixed(0)} %)`,
      );
    }
  } finally {
    await t.close();
  }
}
