/**
 * An optimisation job end to end through the server: POST /api/v1/optimisations with 1,000 EMA-crossover
 * combinations over one year of 1m bars (525,600) from the Binance simulator, on as many sweep threads as cores
 * (KESTREL_BACKTEST_CONCURRENCY), until the job is completed with every combination and the statistics stored. Run
 * twice: cold (the year's klines downloaded into the cache first) and warm (the cache has them). Printed beside the
 * engine-only sweep of the same combinations over the same bars (`runSweepParallel`, same threads) in the same run:
 * the warm job's time over that is what the job costs on top of the engine (database, statistics, storing).
 */

import { availableParallelism } from 'node:os';
import { BarSeries } from '@kestrel/engine';
import { runSweepParallel } from '@kestrel/engine/node';
import { bearer, SIM_START, signUp, startTestServer } from '@kestrel/server/testing';

const YEAR_MS = 365 * 86_400_000;

/** What the bench reads of GET /api/v1/optimisations/:id (the contract is OptimisationDetailSchema) */
interface Detail {
  status: string;
  error: string | null;
  combinations: number;
  stats: {
    trials: number;
    periods: number;
    dsr: number | null;
    pbo: { pbo: number; partitions: number } | null;
    randomEntry: { pValue: number };
  } | null;
}

export default async function optimiseJobBench(): Promise<void> {
  const workers = availableParallelism();
  const t = await startTestServer({
    simulator: { historyDays: 366, rateLimits: { weightPerMinute: 1e9 } },
    env: { KESTREL_BACKTEST_CONCURRENCY: String(workers), KESTREL_EXCHANGE_WEIGHT_LIMIT: '1000000000' },
  });
  try {
    const token = (await signUp(t)).access_token;
    const end = Math.floor(SIM_START / 86_400_000) * 86_400_000;
    const space = {
      fast: { from: 5, to: 50, step: 5 },
      slow: { from: 60, to: 240, step: 20 },
      stopLossPct: { from: 0, to: 0.045, step: 0.005 },
    };
    const body = {
      strategy: 'ema-cross',
      symbol: 'BTCUSDT',
      interval: '1m',
      startTime: end - YEAR_MS,
      endTime: end,
      costs: { funding: false },
      space,
    };
    const job = async () => {
      const t0 = performance.now();
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/optimisations',
        headers: bearer(token),
        payload: body,
      });
      const { id } = (res.json() as { data: { id: string } }).data;
      await t.app.optimisationService.idle();
      const ms = performance.now() - t0;
      const detail = (
        (
          await t.request({ method: 'GET', url: `/api/v1/optimisations/${id}`, headers: bearer(token) })
        ).json() as {
          data: Detail;
        }
      ).data;
      if (detail.status !== 'completed') throw new Error(`job ${detail.status}: ${detail.error}`);
      return { ms, detail };
    };
    const cold = await job();
    const warm = await job();

    // The engine alone on the same bars (read back from the kline cache the job used), the same combinations
    const r0 = performance.now();
    const columns = await t.app.backtestService.inputs
      .klinesOf('testnet')
      .load({ env: 'simulator', symbol: 'BTCUSDT', interval: '1m' }, { start: end - YEAR_MS, end });
    // Part of the warm job: the year read back from the kline cache (a single backtest pays it too)
    const readMs = performance.now() - r0;
    const bars = BarSeries.fromColumns(60_000, columns);
    const values = (a: { from: number; to: number; step: number }) =>
      Array.from({ length: Math.floor((a.to - a.from) / a.step + 1e-9) + 1 }, (_, i) =>
        Number((a.from + i * a.step).toFixed(3)),
      );
    const e0 = performance.now();
    await runSweepParallel(
      'ema-cross',
      {},
      { fast: values(space.fast), slow: values(space.slow), stopLossPct: values(space.stopLossPct) },
      bars,
      { broker: { fundingRate: 0 } },
      'sharpe',
      { workers },
    );
    const engineMs = performance.now() - e0;
    const s = warm.detail.stats;
    console.info(
      `${warm.detail.combinations} combinations × ${bars.length.toLocaleString('en')} 1m bars on ${workers} threads: ` +
        `server job cold (klines downloaded) ${(cold.ms / 1000).toFixed(1)} s, warm (cached) ${(warm.ms / 1000).toFixed(1)} s; ` +
        `engine-only sweep ${(engineMs / 1000).toFixed(1)} s → warm job / engine ${(warm.ms / engineMs).toFixed(2)} (goal: job < 15 s); ` +
        `of the warm job, reading the year from the kline cache ${(readMs / 1000).toFixed(1)} s`,
    );
    console.info(
      `statistics: ${s?.trials} trials, ${s?.periods} periods, DSR ${s?.dsr?.toFixed(3)}, PBO ${s?.pbo?.pbo.toFixed(3)} ` +
        `(S = ${s?.pbo?.partitions}), random-entry p ${s?.randomEntry.pValue.toFixed(3)}`,
    );
  } finally {
    await t.close();
  }
}
