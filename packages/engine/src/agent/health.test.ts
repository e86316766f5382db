import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from './config';
import { decideAgent } from './decide';
import { modelHealth } from './health';
import { trainAgentModel } from './model';
import type { AgentDecision } from './types';
import { agentWorld } from './worlds';

const config = parseAgentConfig({
  trainBars: 1_000,
  horizonBars: 4,
  feeRate: 0.0002,
  slippage: 0.0001,
  minPredictionZ: 0.3,
});

describe('modelHealth', () => {
  const world = agentWorld({ bars: 2_000, seed: 41, phi: 0.3, aux: true });
  const closeTime = (i: number) => (world.bars.openTime[i] as number) + world.intervalMs;
  const model = trainAgentModel({ snapshot: world, config, from: 0, to: 1_200, trainedAt: closeTime(1_203) });
  const decisions: AgentDecision[] = [];
  for (let i = 1_204; i < 1_900; i++) {
    decisions.push(
      decideAgent({
        model,
        snapshot: { ...world, length: i + 1 },
        config,
        position: { qty: 0, entryPrice: null, stopPrice: null },
        now: closeTime(i),
      }),
    );
  }

  it('reports calibration, hit rate and the DI histogram of the decisions made with the model', () => {
    const health = modelHealth({ model, snapshot: world, decisions, config });
    expect(health.modelId).toBe(model.id);
    const judged = decisions.filter(
      (d) => world.length - 1 - (d.barTime - (world.bars.openTime[0] as number)) / world.intervalMs >= 4,
    );
    expect(health.calibration.reduce((s, b) => s + b.count, 0)).toBe(judged.length);
    for (const b of health.calibration) {
      if (b.count > 0) expect(b.meanPredicted as number).toBeGreaterThanOrEqual(b.from);
    }
    expect(health.dissimilarity.counts.reduce((s, c) => s + c, 0)).toBe(decisions.length);
    const entries = decisions.filter((d) => d.action === 'enter_long' || d.action === 'enter_short');
    expect(health.entries).toBe(entries.length);
    expect(entries.length).toBeGreaterThan(10);
    // The planted signal holds out of sample: entries move their way more often than not
    expect(health.hitRate as number).toBeGreaterThan(0.5);
    expect(health.rollingHitRate).toHaveLength(entries.length);
  });

  it('bands each feature by the usual PSI rule, and a market whose volatility changed shifts far more', () => {
    const same = modelHealth({ model, snapshot: world, decisions: [], config });
    const wild = agentWorld({ bars: 2_000, seed: 41, phi: 0.3, sigma: 0.02, aux: true });
    const health = modelHealth({ model, snapshot: wild, decisions: [], config });
    for (const f of [...same.drift, ...health.drift]) {
      // Below 0.1 stable, 0.1 to 0.25 moderate (watch), 0.25 and above large (drift): the label never contradicts the PSI
      expect(f.status).toBe(f.psi >= 0.25 ? 'drift' : f.psi >= 0.1 ? 'watch' : 'ok');
    }
    const drifted = health.drift.filter((f) => f.status === 'drift').map((f) => f.id);
    expect(drifted).toEqual(expect.arrayContaining(['vol_16', 'vol_64', 'atr_pct_14']));
    expect(health.drifting).toBeGreaterThanOrEqual(drifted.length);
    // The same market's last 500 bars move a little (a 64-bar feature has few independent values in them); the
    // doubled volatility moves its features an order of magnitude more
    const psiOf = (h: typeof same, id: string) => h.drift.find((f) => f.id === id)?.psi ?? Number.NaN;
    for (const id of ['vol_16', 'vol_64', 'atr_pct_14']) {
      expect(psiOf(health, id)).toBeGreaterThan(10 * psiOf(same, id));
    }
    expect(health.entries).toBe(0);
    expect(health.hitRate).toBeNull();
  });
});
