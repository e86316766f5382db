/**
 * Engine backtest speed: the EMA-crossover, grid and DCA strategies over ≥ 5 M seeded 1m bars, as bars/s, fills/s
 * and as a ratio to a bare Float64Array EMA-crossover loop (the physical reference) timed in the same run.
 *
 * The machine is shared, so both are timed in CPU time (not wall time), alternately, several rounds each, and the
 * fastest of each is kept (the run least disturbed by other load); ratio = fastest reference / fastest engine.
 * Costs are zero so the account survives 9.5 years of 1m crossovers (with fees a 12/26 crossover on a random walk
 * is bankrupt within weeks and the run would measure an idle account); fills are still fully accounted.
 *
 * The goal (engine CONTEXT.md, Speed): ≥ 0.5 of the reference for EMA 50/200, grid and DCA. Signal-heavy runs are
 * bound by honest per-fill accounting, so EMA 12/26 (a reversal every ~30 bars) is reported with its fills/s and
 * has no goal: there is one accounting path, no cheaper second one for benchmarks.
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
/** Bars/s as a share of the reference loop's that EMA 50/200, grid and DCA must reach */
const GOAL = 0.5;

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
  /** Name, strategy, params, and the goal as a ratio to the reference (null: fill-bound, reported, no goal) */
  const cases: [string, StrategyType, Record<string, unknown>, number | null][] = [
    ['ema 12/26', emaCrossStrategy, { fast: 12, slow: 26 }, null],
    // Same strategy, fewer reversals: shows how the ratio depends on the number of fills
    ['ema 50/200', emaCrossStrategy, { fast: 50, slow: 200 }, GOAL],
    ['grid', gridStrategy, { lower: 40_000, upper: 60_000, gridCount: 40, quantityPerGrid: 0.01 }, GOAL],
    ['dca', dcaStrategy, { safetyOrderCount: 5, priceDeviation: 0.005, takeProfit: 0.005 }, GOAL],
  ];
  let sink = 0;
  // Many short calls first, so that V8 optimises the reference as a whole function: timed cold on 5 M bars, its
  // loop ran V8's on-stack-replacement code (~1.8× slower), and a process could keep that code for every round,
  // which inflated every ratio of the run by as much
  for (let k = 0; k < 300; k++) sink += referenceEmaCrossover(bars.close, 2_000, 12, 26);
  const refRates: number[] = [];
  const verdicts: string[] = [];
  for (const [name, type, params, goal] of cases) {
    let refMs = Number.POSITIVE_INFINITY;
    let ms = Number.POSITIVE_INFINITY;
    let trades = 0;
    let fills = 0;
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
          fills = result.fillCount;
          sink += result.metrics.finalEquity;
        }),
      );
    }
    const ratio = refMs / ms;
    const seconds = ms / 1000;
    const verdict =
      goal === null
        ? 'fill-bound, reported, no goal'
        : `goal ≥ ${goal.toFixed(2)}: ${ratio >= goal ? 'met' : 'NOT met'}`;
    verdicts.push(`${name} ${ratio.toFixed(2)} (${verdict})`);
    console.info(
      `${name.padEnd(10)} ${(BARS / seconds / 1e6).toFixed(1).padStart(6)} M bars/s ` +
        `${(fills / seconds / 1e6).toFixed(2).padStart(6)} M fills/s  ratio to reference ${ratio.toFixed(2)}  ` +
        `${verdict}  (${fills.toLocaleString('en')} fills, ${trades.toLocaleString('en')} round trips, ` +
        `fastest of ${ROUNDS})`,
    );
  }
  console.info(
    `reference Float64Array EMA-crossover loop: ${(Math.max(...refRates) / 1e6).toFixed(0)} M bars/s best, ${(median(refRates) / 1e6).toFixed(0)} M bars/s median`,
  );
  console.info(`ratios to the reference in this run: ${verdicts.join('; ')}`);
  if (Number.isNaN(sink)) console.info('(sink)');
}
