import { describe, expect, it } from 'vitest';
import type { BarColumns } from '../bars/bars';
import { parseAgentConfig } from './config';
import { AGENT_FEATURE_COUNT, AGENT_FEATURES, FEATURE_LOOKBACK, featureMatrix, featureRow } from './features';
import { labelBars } from './labels';
import type { AgentSnapshot } from './types';
import { agentWorld } from './worlds';

/** A snapshot holding copies of bars [0, t] only: nothing after t exists in it */
function cutAt(snapshot: AgentSnapshot, t: number): AgentSnapshot {
  const n = t + 1;
  const bars = Object.fromEntries(
    Object.entries(snapshot.bars).map(([k, v]) => [k, (v as Float64Array).slice(0, n)]),
  ) as unknown as BarColumns;
  const aux = Object.fromEntries(
    Object.entries(snapshot.aux).map(([k, v]) => [k, (v as Float64Array).slice(0, n)]),
  ) as AgentSnapshot['aux'];
  return { intervalMs: snapshot.intervalMs, bars, aux, length: n };
}

describe('agent features', () => {
  it('are 25 with unique stable ids and plain labels', () => {
    expect(AGENT_FEATURES).toHaveLength(25);
    expect(AGENT_FEATURE_COUNT).toBe(25);
    expect(new Set(AGENT_FEATURES.map((f) => f.id)).size).toBe(25);
    for (const f of AGENT_FEATURES) expect(f.label.length).toBeGreaterThan(10);
  });

  it('are point-in-time: features on data[0..t] equal the full-history features at t, double for double', () => {
    const world = agentWorld({ bars: 600, seed: 3, phi: 0.2, aux: true });
    const full = featureMatrix(world, 0, world.length);
    for (const t of [0, 5, 15, 16, 31, 63, 64, 65, 100, 333, 599]) {
      const cut = cutAt(world, t);
      const alone = featureRow(cut, t);
      const inMatrix = featureMatrix(cut, t, t + 1).data;
      const fromFull = full.data.subarray(t * 25, (t + 1) * 25);
      for (let j = 0; j < 25; j++) {
        expect(Object.is(alone[j], fromFull[j]), `bar ${t} feature ${AGENT_FEATURES[j]?.id}`).toBe(true);
        expect(Object.is(inMatrix[j], fromFull[j])).toBe(true);
      }
    }
  });

  it('do not change when later bars change, and matrices starting anywhere agree', () => {
    const world = agentWorld({ bars: 400, seed: 4, phi: 0, aux: true });
    const before = featureRow(world, 200);
    const mutated = cutAt(world, 399);
    for (let i = 201; i < 400; i++) {
      mutated.bars.close[i] = 1;
      mutated.bars.high[i] = 1e9;
      mutated.bars.volume[i] = 0;
      (mutated.aux.fundingRate as Float64Array)[i] = 0.5;
    }
    expect(Array.from(featureRow(mutated, 200))).toEqual(Array.from(before));
    const a = featureMatrix(world, 100, 300);
    const b = featureMatrix(world, 180, 220);
    expect(Array.from(b.data)).toEqual(Array.from(a.data.subarray(80 * 25, 120 * 25)));
  });

  it('leave a missing aux column as NaN and fill every feature after the lookback', () => {
    const world = agentWorld({ bars: 200, seed: 5, phi: 0 });
    const row = featureRow(world, FEATURE_LOOKBACK);
    AGENT_FEATURES.forEach((f, j) => {
      if (f.needs) expect(Number.isNaN(row[j]), f.id).toBe(true);
      else expect(Number.isFinite(row[j]), f.id).toBe(true);
    });
    const withAux = featureRow(agentWorld({ bars: 200, seed: 5, phi: 0, aux: true }), FEATURE_LOOKBACK);
    for (let j = 0; j < 25; j++) expect(Number.isFinite(withAux[j]), AGENT_FEATURES[j]?.id).toBe(true);
    expect(featureRow(world, 3).some((v) => Number.isNaN(v))).toBe(true);
  });

  it('refuse rows outside the snapshot with a clear error', () => {
    const world = agentWorld({ bars: 100, seed: 1, phi: 0 });
    expect(() => featureRow({ ...world, length: 50 }, 50)).toThrow(/outside the snapshot's 50 bars/);
    expect(() => featureMatrix(world, 10, 5)).toThrow(/\[10, 5\)/);
  });
});

describe('agent labels', () => {
  it('label up / flat / down net of costs with a dead zone and keep the end index t1', () => {
    const config = parseAgentConfig({ horizonBars: 2, deadZone: 0.01, feeRate: 0.001, slippage: 0.0005 });
    // band = 0.01 + 2 × 0.0015 = 0.013
    const close = Float64Array.from([100, 100, 101.2, 101.4, 98.6, 98.7, 100]);
    const labels = labelBars(close, config);
    expect(labels.labelled).toBe(5);
    expect(Array.from(labels.label)).toEqual([0, 1, -1, -1, 1, 0, 0]);
    expect(Array.from(labels.t1)).toEqual([2, 3, 4, 5, 6, -1, -1]);
    expect(labels.forward[1]).toBeCloseTo(0.014, 10);
    expect(Number.isNaN(labels.forward[5])).toBe(true);
  });
});
