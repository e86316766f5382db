import { describe, expect, it } from 'vitest';
import { createRandom } from '../random/prng';
import { parseAgentConfig } from './config';
import { applyModel, fitLogistic, sigmoid, trainAgentModel } from './model';
import { agentWorld } from './worlds';

const config = parseAgentConfig({ trainBars: 1_000, horizonBars: 4, feeRate: 0.0002, slippage: 0.0001 });

describe('agent model', () => {
  it('recovers the coefficients of a known logistic model (Newton with a small L2)', () => {
    const n = 20_000;
    const random = createRandom(11);
    const x = new Float64Array(n * 3);
    const y = new Float64Array(n);
    const truth = [1.5, -2, 0];
    for (let r = 0; r < n; r++) {
      let z = 0.3;
      for (let j = 0; j < 3; j++) {
        const v = random.normal();
        x[j * n + r] = v;
        z += (truth[j] as number) * v;
      }
      y[r] = random.next() < sigmoid(z) ? 1 : 0;
    }
    const w = fitLogistic(x, n, 3, y, 1e-6);
    expect(w[0]).toBeCloseTo(1.5, 1);
    expect(w[1]).toBeCloseTo(-2, 1);
    expect(Math.abs(w[2] as number)).toBeLessThan(0.05);
    expect(w[3]).toBeCloseTo(0.3, 1);
    // A strong penalty shrinks every coefficient towards 0
    const shrunk = fitLogistic(x, n, 3, y, 10);
    expect(Math.abs(shrunk[1] as number)).toBeLessThan(0.2);
  });

  it('is deterministic, JSON-serialisable and uses no bar after the last label it trains on', () => {
    const world = agentWorld({ bars: 3_000, seed: 2, phi: 0.2, aux: true });
    const a = trainAgentModel({ snapshot: world, config, from: 500, to: 1_800, trainedAt: 123 });
    const b = trainAgentModel({ snapshot: world, config, from: 500, to: 1_800, trainedAt: 123 });
    expect(b).toEqual(a);
    expect(a.id).toMatch(/^agm_[0-9a-f]{16}$/);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    // The last row (1 799) has its label end at 1 803: a snapshot cut right there trains the same model
    const cut = { ...world, length: 1_800 + config.horizonBars };
    expect(trainAgentModel({ snapshot: cut, config, from: 500, to: 1_800, trainedAt: 123 }).id).toBe(a.id);
    // Another window, another model
    expect(trainAgentModel({ snapshot: world, config, from: 600, to: 1_800, trainedAt: 123 }).id).not.toBe(
      a.id,
    );
    expect(a.rows).toBe(1_300);
    expect(a.featureIds).toHaveLength(25);
    expect(a.referenceRows.length).toBeGreaterThan(100);
    expect(a.inSample.up + a.inSample.flat + a.inSample.down).toBeCloseTo(1, 12);
  });

  it('fits the scaler on the training window only', () => {
    const world = agentWorld({ bars: 3_000, seed: 2, phi: 0.2 });
    const early = trainAgentModel({ snapshot: world, config, from: 100, to: 1_100, trainedAt: 0 });
    const bumped = { ...world, bars: { ...world.bars, volume: world.bars.volume.slice() } };
    for (let i = 1_200; i < 3_000; i++) bumped.bars.volume[i] = (bumped.bars.volume[i] as number) * 50;
    expect(trainAgentModel({ snapshot: bumped, config, from: 100, to: 1_100, trainedAt: 0 }).std).toEqual(
      early.std,
    );
  });

  it('learns the planted signal: momentum of the last bar predicts up', () => {
    const world = agentWorld({ bars: 3_000, seed: 2, phi: 0.3 });
    const model = trainAgentModel({ snapshot: world, config, from: 0, to: 3_000, trainedAt: 0 });
    expect(model.up.coefficients[0]).toBeGreaterThan(0.1);
    expect(model.down.coefficients[0]).toBeLessThan(-0.1);
  });

  it('refuses too short a window with a clear error', () => {
    const world = agentWorld({ bars: 300, seed: 2, phi: 0 });
    expect(() => trainAgentModel({ snapshot: world, config, from: 0, to: 150, trainedAt: 0 })).toThrow(
      /at least 100 labelled rows/,
    );
  });

  it('refuses to apply a model trained on other features', () => {
    const world = agentWorld({ bars: 1_500, seed: 2, phi: 0.2 });
    const model = trainAgentModel({ snapshot: world, config, from: 0, to: 1_400, trainedAt: 0 });
    const row = new Float64Array(25);
    expect(() => applyModel(model, row)).not.toThrow();
    const renamed = { ...model, featureIds: [...model.featureIds.slice(1), 'ret_1'] };
    expect(() => applyModel(renamed, row)).toThrow(/trained on other features .* retrain it/);
    expect(() => applyModel({ ...model, format: 2 as 1 }, row)).toThrow(/format 2/);
  });

  it('trains without failing when one class never occurs (every bar flat), and then predicts no move', () => {
    const world = agentWorld({ bars: 1_500, seed: 2, phi: 0 });
    const flatOnly = parseAgentConfig({ ...config, deadZone: 0.2 });
    const model = trainAgentModel({ snapshot: world, config: flatOnly, from: 0, to: 1_400, trainedAt: 0 });
    expect(model.inSample.flat).toBe(1);
    expect(model.moves).toEqual({ up: 0, down: 0 });
    const out = applyModel(model, new Float64Array(25));
    expect(out.pUp).toBeLessThan(0.01);
    expect(out.pDown).toBeLessThan(0.01);
    expect(model.up.coefficients.every(Number.isFinite)).toBe(true);
  });
});
