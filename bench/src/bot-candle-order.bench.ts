/**
 * A live bot's reaction time inside the server: from a closed 1m candle arriving on the server's market stream to
 * the bot's order leaving through the exchange adapter (`placeOrder` called), p50/p99 over many bars. The real
 * server (PGlite) and the simulator on a manual clock: a grid bot whose level is crossed every bar, so each close
 * has one fill to answer with one order. Measured twice in the same run: alone (the reference), and with a
 * backtest running on a worker thread the whole time (the engine's sweep pool, one worker, back to back); the
 * ratio is what a backtest costs a live bot.
 */
import { generateBars } from '@kestrel/engine';
import { runSweepParallel } from '@kestrel/engine/node';
import { ManualClock } from '@kestrel/exchange-sim';
import { bearer, clockReading, SIM_START, startTestServer } from '@kestrel/server/testing';

const BARS = Number(process.env.BENCH_BARS ?? 40);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

export default async function botCandleOrder(): Promise<void> {
  const simClock = new ManualClock(SIM_START);
  const clock = clockReading(() => new Date(simClock.now()));
  const t = await startTestServer({
    simulator: { clock: simClock, historyDays: 1, symbols: ['BTCUSDT'] },
    deps: { clock, botLeaseRenewMs: 3_600_000, orderTimings: { deadmanCountdownMs: 3_600_000 } },
  });
  try {
    const { auth } = await t.connectedUser();
    const headers = bearer(auth.access_token);
    t.sim.exchange.setPrice('BTCUSDT', { price: '50000' });

    // Stamps: the closed candle as the server's stream hands it over (a listener on the same upstream stream,
    // registered before the bot's), and the bot's order as it reaches the adapter
    let closedAt = Number.NaN;
    const samples: number[] = [];
    const live = t.app.liveStreams;
    if (!live) throw new Error('the server has no live streams');
    let closes = 0;
    const unwatch = live.watchClosedCandles('BTCUSDT', '1m', () => {
      closedAt = performance.now();
      closes++;
    });
    const adapter = t.app.exchangeAdapter;
    const place = adapter.placeOrder.bind(adapter);
    adapter.placeOrder = (keys, order) => {
      if (Number.isFinite(closedAt)) {
        samples.push(performance.now() - closedAt);
        closedAt = Number.NaN;
      }
      return place(keys, order);
    };

    const created = await t.request({
      method: 'POST',
      url: '/api/v1/agents/',
      headers,
      payload: {
        name: 'Bench grid',
        strategy: 'grid',
        params: { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.003 },
        symbol: 'BTCUSDT',
        interval: '1m',
        leverage: 5,
        budget: 5000,
        mode: 'live',
      },
    });
    const botId = created.json().data.id as string;
    await t.request({ method: 'POST', url: `/api/v1/agents/${botId}/start`, headers });

    /**
     * The simulator's clock to 1 ms before the next minute, then across it: the candle closes there, and
     * the clock stands still while the bot answers (its signed requests carry that time; moving on would put them
     * outside Binance's receive window)
     */
    const toNextBar = async () => {
      // In steps of a second, as the stream's ping/pong timing (on the simulator's clock) expects
      const left = 60_000 - (simClock.now() % 60_000) + 1_000;
      for (let done = 0; done < left; done += 1_000) {
        simClock.advance(1_000);
        t.sim.tick();
        await sleep(5);
      }
      await sleep(400);
    };
    // The grid goes out at the first close the bot hears (the server's kline stream connects first)
    const openOrders = async () => {
      const r = await t.request({ method: 'GET', url: `/api/v1/agents/${botId}/status`, headers });
      if (r.statusCode !== 200) throw new Error(`status: ${r.statusCode} ${r.body}`);
      return r.json().data.openOrders.length as number;
    };
    for (let i = 0; i < 10 && (await openOrders()) < 10; i++) {
      // Real time for the server's kline stream to connect to the simulator
      await sleep(2_000);
      await toNextBar();
    }
    if ((await openOrders()) < 10)
      throw new Error(`the bot never placed its grid (${closes} closed candles heard)`);
    samples.length = 0;

    /** `bars` closes, the price crossing the 49,800 level each bar (a buy fills, then its answering sell) */
    let down = true;
    const run = async (bars: number): Promise<number[]> => {
      samples.length = 0;
      for (let i = 0; i < bars; i++) {
        t.sim.exchange.setPrice('BTCUSDT', { price: down ? '49750' : '50050' });
        down = !down;
        await toNextBar();
      }
      return [...samples].sort((a, b) => a - b);
    };

    const alone = await run(BARS);

    // A backtest on a worker thread, back to back, for as long as the second run lasts
    const history = generateBars({ seed: 11, count: 525_600, volatility: 0.0008 });
    let busy = true;
    let backtests = 0;
    const background = (async () => {
      while (busy) {
        await runSweepParallel('ema-cross', {}, { fast: [10], slow: [100] }, history, {}, 'sharpe', {
          workers: 1,
          batchSize: 1,
        });
        backtests++;
      }
    })();
    await sleep(300);
    const loaded = await run(BARS);
    busy = false;
    await background;
    unwatch();
    adapter.placeOrder = place;

    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    const line = (name: string, s: number[]) =>
      `  ${name.padEnd(28)} n ${String(s.length).padStart(3)}  p50 ${f(pct(s, 0.5))}  p99 ${f(pct(s, 0.99))}`;
    console.info(`closed 1m candle → bot order at the adapter, ${BARS} bars each`);
    console.info(line('alone (reference)', alone));
    console.info(line(`with a backtest (${backtests} runs)`, loaded));
    console.info(
      `  with / alone ratio: p50 ${(pct(loaded, 0.5) / pct(alone, 0.5)).toFixed(2)}x, ` +
        `p99 ${(pct(loaded, 0.99) / pct(alone, 0.99)).toFixed(2)}x`,
    );
  } finally {
    await t.close();
  }
}
