import { describe, expect, it } from 'vitest';
import { parseAgentConfig } from './config';
import { AGENT_EVIDENCE_GATES, agentEvidence } from './evidence';
import { agentWorld } from './worlds';

const config = parseAgentConfig({
  trainBars: 2_000,
  horizonBars: 4,
  feeRate: 0.0002,
  slippage: 0.0001,
  deadZone: 0.0005,
  expiryHours: 48,
  l2: 0.05,
});

describe('agentEvidence', { timeout: 180_000 }, () => {
  it('passes every gate on a seeded world with a planted signal', () => {
    const world = agentWorld({ bars: 8_000, seed: 7, phi: 0.3, aux: true });
    const ev = agentEvidence({ snapshot: world, config, trials: [0.01, -0.02, 0.03] });
    expect(ev.gates.map((g) => [g.gate, g.passed])).toEqual([
      ['dsr', true],
      ['pbo', true],
      ['random_entry', true],
      ['retention', true],
    ]);
    expect(ev.passed).toBe(true);
    // The inputs behind each figure are reported with it
    expect(ev.statistics.deflated.trials).toBe(3 + ev.variants.length);
    expect(ev.gates[0]?.inputs).toMatch(/N = \d+ trials \(3 in the registry/);
    expect(ev.variants.filter((v) => v.selected)).toHaveLength(1);
    expect(ev.oos.totalReturn).toBeGreaterThan(ev.oos.buyAndHoldReturn);
    expect(ev.oos.costs.fees).toBeGreaterThan(0);
    expect(ev.oos.costs.slippage).toBeGreaterThan(0);
    // Walk-forward: each fold trains before its test window, with the horizon as a gap
    expect(ev.folds.length).toBeGreaterThan(10);
    for (const f of ev.folds) {
      expect(f.trainTo + config.horizonBars * world.intervalMs).toBeLessThan(f.testFrom);
      expect(f.trainRows).toBe(2_000);
    }
    expect(ev.curves.time.length).toBe(ev.curves.agent.length);
    expect(ev.curves.buyAndHold.length).toBe(ev.curves.randomEntry.length);
    // Purged CV: rows whose label overlaps a test block dropped, 1% embargo after it
    expect(ev.cv.embargoBars).toBe(Math.ceil((world.length - config.horizonBars - 64) * 0.01));
    expect(ev.cv.folds.slice(1).every((f) => f.purged === config.horizonBars)).toBe(true);
    expect(ev.cv.folds.slice(0, -1).every((f) => f.embargoed === ev.cv.embargoBars)).toBe(true);
    expect(ev.cv.meanAccuracy).toBeGreaterThan(ev.cv.meanBaselineAccuracy);
  });

  it('fails the gates on pure noise (the honesty machinery works)', () => {
    for (const seed of [7, 8]) {
      const world = agentWorld({ bars: 8_000, seed, phi: 0, aux: true });
      const ev = agentEvidence({ snapshot: world, config });
      expect(ev.passed).toBe(false);
      const dsr = ev.gates.find((g) => g.gate === 'dsr');
      expect(dsr?.passed).toBe(false);
      expect(dsr?.value as number).toBeLessThan(AGENT_EVIDENCE_GATES.dsr);
      expect(ev.gates.filter((g) => g.passed).length).toBeLessThanOrEqual(1);
    }
  });

  it('says how many more bars it needs', () => {
    const world = agentWorld({ bars: 2_100, seed: 1, phi: 0 });
    expect(() => agentEvidence({ snapshot: world, config })).toThrow(/evidence needs more bars/);
  });
});
