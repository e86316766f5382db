/**
 * Parameter sweep: 1,000 EMA-crossover combinations over one year of seeded 1m bars (525,600), spread over worker
 * threads (one per core). Printed: wall time, combinations/s, CPU time over all threads (what the sweep costs on
 * idle cores, since this machine is shared), and the ratio to the physical floor measured in the same run:
 * 1,000 passes of the bare EMA-crossover loop split over the same number of cores.
 */

import { availableParallelism } from 'node:os';
import { generateBars } from '@kestrel/engine';
import { runSweepParallel } from '@kestrel/engine/node';
import { referenceEmaCrossover } from './reference-ema-crossover';

const BARS = 525_600;

export default async function engineSweepBench(): Promise<void> {
  const bars = generateBars({ seed: 7, count: BARS, volatility: 0.0008 });
  const space = {
    fast: [5, 10, 15, 20, 25, 30, 35, 40, 45, 50],
    slow: [60, 80, 100, 120, 140, 160, 180, 200, 220, 240],
    stopLossPct: [0, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.035, 0.04, 0.045],
  };
  const workers = availableParallelism();
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const results = await runSweepParallel('ema-cross', {}, space, bars, {}, 'sharpe', {
    workers,
    batchSize: 10,
  });
  const ms = performance.now() - t;
  // cpuUsage covers every thread of the process, workers included: the figure other load does not inflate
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  // Reference: the same 1,000 (fast, slow) passes of the bare loop on this thread (CPU time), divided by the cores
  let sink = 0;
  const ref0 = process.cpuUsage();
  for (const fast of space.fast) {
    for (const slow of space.slow) sink += referenceEmaCrossover(bars.close, bars.length, fast, slow);
  }
  const ref = process.cpuUsage(ref0);
  const refMs = (((ref.user + ref.system) / 1000) * space.stopLossPct.length) / workers;
  const best = results[0];
  console.info(
    `${results.length} combinations × ${BARS.toLocaleString('en')} bars on ${workers} worker threads: ${(ms / 1000).toFixed(1)} s ` +
      `(${(results.length / (ms / 1000)).toFixed(0)} combinations/s, ${((results.length * BARS) / (ms / 1000) / 1e6).toFixed(0)} M bars/s)`,
  );
  console.info(
    `CPU time ${(cpuMs / 1000).toFixed(1)} s over all threads → ${(cpuMs / workers / 1000).toFixed(1)} s on ${workers} otherwise idle cores`,
  );
  console.info(
    `reference floor (bare loop, CPU time, same cores): ${(refMs / 1000).toFixed(2)} s → ratio ${(refMs / (cpuMs / workers)).toFixed(2)}`,
  );
  console.info(`best by Sharpe: ${JSON.stringify(best?.params)} sharpe ${best?.metrics?.sharpe.toFixed(2)}`);
  if (Number.isNaN(sink)) console.info('(sink)');
}
