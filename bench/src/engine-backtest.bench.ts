/**
 * Engine backtest speed: the EMA-crossover, grid and DCA strategies over ≥ 5 M seeded 1m bars, as bars/s and as a
 * ratio to a bare Float64Array EMA-crossover loop (the physical reference) timed in the same run.
 *
 * The machine is shared, so both are timed in CPU time (not wall time), alternately, several rounds each, and the
 * fastest of each is kept (the run least disturbed by other load); ratio = fastest reference / fastest engine.
 * Costs are zero so the account survives 9.5 years of 1m crossovers (with fees a 12/26 crossover on a random walk
 * is bankrupt within weeks and the run would measure an idle account); fills are still fully accounted.
 */

import {
  type BarSeries,
  dcaStrategy,
  emaCrossStrategy,
  generateBars,
  gridStrategy,
  type RunSettings,
  runBacktest,
  type StrategyType,
} from '@kestrel/engine';
import { referenceEmaCrossover } from './reference-ema-crossover';

const BARS = Number(process.env.ENGINE_BENCH_BARS ?? 5_000_000);
const ROUNDS = Number(process.env.ENGINE_BENCH_ROUNDS ?? 5);

/** CPU time of this process in ms: on a shared machine it is far steadier than wall time (waiting is not counted) */
function time(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

export default async function engineBacktestBench(): Promise<void> {
  const t0 = performance.now();
  const bars: BarSeries = generateBars({ seed: 42, count: BARS, volatility: 0.0008 });
  console.info(
    `${BARS.toLocaleString('en')} seeded 1m bars generated in ${(performance.now() - t0).toFixed(0)} ms`,
  );
  const equity = new Float64Array(BARS);
  const settings: RunSettings = { broker: { makerFee: 0, takerFee: 0, slippageBps: 0, fundingRate: 0 } };
  const cases: [string, StrategyType, Record<string, unknown>][] = [
    ['ema 12/26', emaCrossStrategy, { fast: 12, slow: 26 }],
    // Same strategy, fewer reversals: shows how the ratio depends on the number of fills
    ['ema 50/200', emaCrossStrategy, { fast: 50, slow: 200 }],
    ['grid', gridStrategy, { lower: 40_000, upper: 60_000, gridCount: 40, quantityPerGrid: 0.01 }],
    ['dca', dcaStrategy, { safetyOrderCount: 5, priceDeviation: 0.005, takeProfit: 0.005 }],
  ];
  let sink = 0;
  // Many short calls first, so that V8 optimises the reference as a whole function: timed cold on 5 M bars, its
  // loop ran V8's on-stack-replacement code (~1.8× slower), and a process could keep that code for every round,
  // which inflated every ratio of the run by as much
  for (let k = 0; k < 300; k++) sink += referenceEmaCrossover(bars.close, 2_000, 12, 26);
  const refRates: number[] = [];
  for (const [name, type, params] of cases) {
    let refMs = Number.POSITIVE_INFINITY;
    let ms = Number.POSITIVE_INFINITY;
    let trades = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const ref = time(() => {
        sink += referenceEmaCrossover(bars.close, bars.length, 12, 26);
      });
      refMs = Math.min(refMs, ref);
      refRates.push(BARS / (ref / 1000));
      ms = Math.min(
        ms,
        time(() => {
          const result = runBacktest(type, params, bars, settings, {
            equityBuffer: equity,
            keepDetails: false,
          });
          trades = result.metrics.tradeCount;
          sink += result.metrics.finalEquity;
        }),
      );
    }
    console.info(
      `${name.padEnd(10)} ${(BARS / (ms / 1000) / 1e6).toFixed(1).padStart(6)} M bars/s  ratio to reference ${(refMs / ms).toFixed(2)}  (${trades} round trips, fastest of ${ROUNDS})`,
    );
  }
  console.info(
    `reference Float64Array EMA-crossover loop: ${(Math.max(...refRates) / 1e6).toFixed(0)} M bars/s best, ${(median(refRates) / 1e6).toFixed(0)} M bars/s median`,
  );
  if (Number.isNaN(sink)) console.info('(sink)');
}
