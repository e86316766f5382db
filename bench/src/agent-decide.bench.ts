/**
 * The AI agent's decision latency per closed candle (issue 18, item 8): on each new 1m bar, the snapshot's last row
 * of features, the model (both logits, the dissimilarity search over its reference rows), the trust gates, the
 * decision record (contributions, snapshot hash) and `applyDecision` against the simulated broker: what the server
 * runs per bar, without the LLM reviewer. Goal: p99 < 20 ms. Per-call wall time (hrtime) over thousands of bars,
 * beside the same percentiles of the bare Float64Array EMA-crossover loop over the snapshot's closes (the engine
 * benches' reference), timed alternately in the same run.
 */

import {
  agentWorld,
  applyDecision,
  BarSeries,
  brokerConfig,
  decideAgent,
  parseAgentConfig,
  SimBroker,
  trainAgentModel,
} from '@kestrel/engine';
import { referenceEmaCrossover } from './reference-ema-crossover';

const HISTORY = Number(process.env.AGENT_BENCH_HISTORY ?? 10_000);
const DECISIONS = Number(process.env.AGENT_BENCH_DECISIONS ?? 5_000);
const GOAL_P99_MS = 20;
/** Bars decided untimed first, so the timed ones run optimised code (as a long-running agent does) */
const WARMUP = 300;

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
};

export default async function agentDecideBench(): Promise<void> {
  const n = HISTORY + WARMUP + DECISIONS;
  const world = agentWorld({ bars: n, seed: 7, phi: 0.2, intervalMs: 60_000, sigma: 0.001, aux: true });
  // Low costs so that entries and exits (the orders path) happen often, not only holds
  const config = parseAgentConfig({
    trainBars: 5_000,
    horizonBars: 12,
    minPredictionZ: 0.5,
    feeRate: 0.0001,
    slippage: 0,
    deadZone: 0.0002,
    expiryHours: 24 * 30,
  });
  const closeTime = (i: number) => (world.bars.openTime[i] as number) + world.intervalMs;
  const model = trainAgentModel({
    snapshot: world,
    config,
    from: HISTORY - 5_000 - 12,
    to: HISTORY - 12,
    trainedAt: closeTime(HISTORY - 1),
  });
  const bars = BarSeries.fromColumns(world.intervalMs, world.bars);
  const broker = new SimBroker(brokerConfig({ initialBalance: 10_000, leverage: 3 }), bars);
  const agent: number[] = [];
  const reference: number[] = [];
  const actions = new Map<string, number>();
  let sink = 0;
  for (let i = HISTORY; i < n; i++) {
    broker.processBar(i);
    let t = process.hrtime.bigint();
    sink += referenceEmaCrossover(world.bars.close.subarray(i + 1 - 5_000), 5_000, 12, 26);
    if (i >= HISTORY + WARMUP) reference.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    const qty = broker.positionQty;
    const decision = decideAgent({
      model,
      snapshot: { ...world, length: i + 1 },
      config,
      position: { qty, entryPrice: qty !== 0 ? broker.entryPrice : null, stopPrice: null },
      now: closeTime(i),
    });
    const price = world.bars.close[i] as number;
    applyDecision(broker, decision, { price, budget: 1_000, leverage: 3 });
    if (i >= HISTORY + WARMUP) agent.push(Number(process.hrtime.bigint() - t) / 1e6);
    actions.set(decision.action, (actions.get(decision.action) ?? 0) + 1);
  }
  const p99 = percentile(agent, 0.99);
  console.info(
    `decision per closed candle (${HISTORY.toLocaleString('en')}-bar snapshot, ${DECISIONS.toLocaleString('en')} ` +
      `bars): p50 ${percentile(agent, 0.5).toFixed(3)} ms, p99 ${p99.toFixed(3)} ms, max ` +
      `${Math.max(...agent).toFixed(3)} ms; goal p99 < ${GOAL_P99_MS} ms: ${p99 < GOAL_P99_MS ? 'met' : 'NOT met'}`,
  );
  console.info(
    `reference (EMA-crossover loop over 5,000 closes): p50 ${percentile(reference, 0.5).toFixed(3)} ms, p99 ` +
      `${percentile(reference, 0.99).toFixed(3)} ms; ratio of p50s ${(percentile(agent, 0.5) / percentile(reference, 0.5)).toFixed(1)}`,
  );
  console.info(`actions: ${[...actions].map(([a, c]) => `${a} ${c}`).join(', ')}`);
  if (Number.isNaN(sink)) console.info('(sink)');
}
