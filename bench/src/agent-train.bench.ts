/**
 * The AI agent's training speed (issue 18, item 8): a year of 1m bars (525,600) × 25 features, the feature matrix
 * built in one pass and the two one-vs-rest L2 logistic regressions fitted by Newton's method, on one core. Goal:
 * under 10 s. Timed in CPU time (the machine is shared), fastest of a few rounds, beside the bare Float64Array
 * EMA-crossover loop over the same closes (the reference every engine bench uses): the ratio says how many
 * reference loops a training costs, so a slow host shows in the reference's rate, not as a slower agent.
 * The worker-thread path the server uses (`trainAgentInWorker`) is timed once in wall time, start-up included.
 */

import { agentWorld, featureMatrix, parseAgentConfig, trainAgentModel } from '@kestrel/engine';
import { trainAgentInWorker } from '@kestrel/engine/node';
import { referenceEmaCrossover } from './reference-ema-crossover';

const BARS = Number(process.env.AGENT_BENCH_BARS ?? 525_600);
const ROUNDS = Number(process.env.AGENT_BENCH_ROUNDS ?? 3);
const GOAL_SECONDS = 10;

function cpu(fn: () => void): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export default async function agentTrainBench(): Promise<void> {
  const world = agentWorld({ bars: BARS, seed: 42, phi: 0.05, intervalMs: 60_000, sigma: 0.0008, aux: true });
  // The whole year is the training window: the goal's case
  const config = parseAgentConfig({ trainBars: Math.min(1_000_000, BARS), horizonBars: 12 });
  let sink = 0;
  for (let k = 0; k < 300; k++) sink += referenceEmaCrossover(world.bars.close, 2_000, 12, 26);
  let refMs = Number.POSITIVE_INFINITY;
  let featuresMs = Number.POSITIVE_INFINITY;
  let trainMs = Number.POSITIVE_INFINITY;
  let rows = 0;
  for (let r = 0; r < ROUNDS; r++) {
    refMs = Math.min(
      refMs,
      cpu(() => {
        sink += referenceEmaCrossover(world.bars.close, BARS, 12, 26);
      }),
    );
    featuresMs = Math.min(
      featuresMs,
      cpu(() => {
        sink += featureMatrix(world, 0, BARS).data[BARS] as number;
      }),
    );
    trainMs = Math.min(
      trainMs,
      cpu(() => {
        const model = trainAgentModel({ snapshot: world, config, from: 0, to: BARS, trainedAt: 0 });
        rows = model.rows;
        sink += model.up.intercept;
      }),
    );
  }
  const wallStart = performance.now();
  const inWorker = await trainAgentInWorker({ snapshot: world, config, from: 0, to: BARS, trainedAt: 0 });
  const workerMs = performance.now() - wallStart;
  const seconds = trainMs / 1000;
  console.info(
    `training: ${rows.toLocaleString('en')} rows × 25 features in ${seconds.toFixed(2)} s CPU (features alone ` +
      `${(featuresMs / 1000).toFixed(2)} s), goal < ${GOAL_SECONDS} s: ${seconds < GOAL_SECONDS ? 'met' : 'NOT met'} ` +
      `(fastest of ${ROUNDS})`,
  );
  console.info(
    `ratio to the reference: training costs ${(trainMs / refMs).toFixed(0)} reference loops; reference ` +
      `Float64Array EMA-crossover loop ${(BARS / (refMs / 1000) / 1e6).toFixed(0)} M bars/s in this run`,
  );
  console.info(
    `on a worker thread (the server's path, start-up included): ${(workerMs / 1000).toFixed(2)} s wall`,
  );
  if (Number.isNaN(sink + inWorker.rows)) console.info('(sink)');
}
