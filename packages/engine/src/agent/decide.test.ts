import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BarSeries } from '../bars/bars';
import { brokerConfig } from '../broker/config';
import { SimBroker } from '../broker/sim-broker';
import { AGENT_ORDER_TAGS, applyDecision } from './apply';
import { parseAgentConfig } from './config';
import { decideAgent } from './decide';
import { trainAgentModel } from './model';
import type { AgentDecision, AgentPositionView } from './types';
import { agentWorld } from './worlds';

const HOUR = 3_600_000;
/** Regenerate with UPDATE_GOLDEN=1 after a deliberate change to features, fitting or the rule; review the diff */
const GOLDEN = new URL('./__golden__/decisions.json', import.meta.url);
const config = parseAgentConfig({
  trainBars: 1_500,
  horizonBars: 4,
  feeRate: 0.0002,
  slippage: 0.0001,
  deadZone: 0.0005,
  minPredictionZ: 0.5,
  expiryHours: 48,
});
const world = agentWorld({ bars: 2_000, seed: 21, phi: 0.3, aux: true });
const closeTime = (i: number) => (world.bars.openTime[i] as number) + world.intervalMs;
const model = trainAgentModel({ snapshot: world, config, from: 0, to: 1_600, trainedAt: closeTime(1_603) });
const flat: AgentPositionView = { qty: 0, entryPrice: null, stopPrice: null };
const at = (i: number, position = flat, now = closeTime(i), m: typeof model | null = model): AgentDecision =>
  decideAgent({ model: m, snapshot: { ...world, length: i + 1 }, config, position, now });

describe('decideAgent', () => {
  it('records golden decisions for a fixed seed, byte for byte', () => {
    // Walk 40 bars with a position that follows the decisions (entries fill at the close, exits flatten)
    const records: AgentDecision[] = [];
    let position = flat;
    for (let i = 1_604; i < 1_644; i++) {
      const d = at(i, position);
      records.push(d);
      const c = world.bars.close[i] as number;
      if (d.action === 'enter_long' || d.action === 'enter_short') {
        const qty = d.action === 'enter_long' ? 1 : -1;
        const stop = d.stopPct === null ? null : c * (1 - qty * d.stopPct);
        position = { qty, entryPrice: c, stopPrice: stop };
      } else if (d.action === 'exit') position = flat;
    }
    const actions = new Set(records.map((r) => r.action));
    expect(actions.has('hold')).toBe(true);
    expect(actions.has('enter_long') || actions.has('enter_short')).toBe(true);
    // Compared as canonical JSON (JSON keeps every double exactly), so the formatter may lay the file out as it likes
    const actual = JSON.stringify(records, null, 2);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, `${actual}\n`);
    expect(actual).toBe(JSON.stringify(JSON.parse(readFileSync(GOLDEN, 'utf8')), null, 2));
  });

  it('explains every decision: contributions sum to the logit, gates with values and limits', () => {
    const d = at(1_700);
    expect(d.contributions).toHaveLength(25);
    const side = d.pUp !== null && d.pDown !== null && d.pUp >= d.pDown ? model.up : model.down;
    const sum = d.contributions.reduce((s, c) => s + c.contribution, side.intercept);
    const p = side === model.up ? d.pUp : d.pDown;
    expect(1 / (1 + Math.exp(-sum))).toBeCloseTo(p as number, 12);
    expect(d.gates.map((g) => g.gate)).toEqual(['model_fresh', 'dissimilarity', 'prediction_z', 'edge']);
    expect(d.modelId).toBe(model.id);
    expect(d.snapshotHash).toMatch(/^[0-9a-f]{16}$/);
    expect(at(1_700).snapshotHash).toBe(d.snapshotHash);
    expect(at(1_701).snapshotHash).not.toBe(d.snapshotHash);
  });

  it('allows no entry from a stale model, yet exits with it', () => {
    const entries = [];
    for (let i = 1_604; i < 1_800; i++) {
      const fresh = at(i);
      if (fresh.action === 'enter_long' || fresh.action === 'enter_short') entries.push(i);
    }
    expect(entries.length).toBeGreaterThan(0);
    const i = entries[0] as number;
    const stale = at(i, flat, closeTime(i) + (config.expiryHours + 1) * HOUR);
    expect(stale.action).toBe('hold');
    expect(stale.reasonCodes).toContain('model_stale');
    expect(stale.gates.find((g) => g.gate === 'model_fresh')?.passed).toBe(false);
    // Holding the side the model now leans against: the stale model still exits
    const fresh = at(i);
    const against: AgentPositionView = {
      qty: fresh.action === 'enter_long' ? -1 : 1,
      entryPrice: 100,
      stopPrice: null,
    };
    const exit = at(i, against, closeTime(i) + 1_000 * HOUR);
    expect(exit.action).toBe('exit');
    expect(exit.reasonCodes).toEqual(['exit_signal']);
  });

  it('exits on a stop that was hit even without a model, and holds without one otherwise', () => {
    const i = 1_650;
    const low = world.bars.low[i] as number;
    const long: AgentPositionView = { qty: 2, entryPrice: low * 1.1, stopPrice: low * 1.01 };
    expect(at(i, long, closeTime(i), null)).toMatchObject({ action: 'exit', reasonCodes: ['stop_hit'] });
    expect(at(i, flat, closeTime(i), null)).toMatchObject({ action: 'hold', reasonCodes: ['no_model'] });
    expect(at(10)).toMatchObject({ action: 'hold', reasonCodes: ['insufficient_history'] });
  });

  it('holds with every failed gate named when the market is unlike the training rows', () => {
    const strict = { ...config, maxDissimilarity: 0.01 };
    const d = decideAgent({
      model,
      snapshot: { ...world, length: 1_701 },
      config: strict,
      position: flat,
      now: closeTime(1_700),
    });
    expect(d.action).toBe('hold');
    expect(d.reasonCodes).toContain('dissimilar');
    const costly = { ...config, feeRate: 0.01 };
    const e = decideAgent({
      model,
      snapshot: { ...world, length: 1_701 },
      config: costly,
      position: flat,
      now: closeTime(1_700),
    });
    expect(e.reasonCodes).toContain('edge_below_costs');
    expect(e.expectedEdge).toBeLessThan(0);
  });
});

describe('applyDecision', () => {
  const bars = BarSeries.fromColumns(world.intervalMs, world.bars);
  const entry = (action: 'enter_long' | 'enter_short', stopPct: number | null): AgentDecision => ({
    ...at(1_700),
    action,
    sizeFraction: 0.25,
    stopPct,
    reasonCodes: [action === 'enter_long' ? 'signal_long' : 'signal_short'],
  });

  it('sizes an entry by budget × fraction × leverage, rounded to the step, with a reduce-only stop', () => {
    const broker = new SimBroker(brokerConfig({ initialBalance: 10_000, leverage: 5 }), bars);
    broker.processBar(0);
    const price = 20_000;
    const applied = applyDecision(broker, entry('enter_long', 0.01), { price, budget: 1_000, leverage: 3 });
    expect(applied.skipped).toBeNull();
    expect(broker.leverage).toBe(3);
    const [market, stop] = applied.orders;
    // 1 000 × 0.25 × 3 / 20 000 = 0.0375 → 0.037 at a 0.001 step
    expect(market).toMatchObject({
      side: 'buy',
      type: 'market',
      quantity: 0.037,
      tag: AGENT_ORDER_TAGS.entry,
    });
    expect(stop).toMatchObject({
      side: 'sell',
      type: 'stop-market',
      quantity: 0.037,
      triggerPrice: 19_800,
      reduceOnly: true,
      tag: AGENT_ORDER_TAGS.stop,
    });
    // Without stop orders on the port, only the entry is sent
    const other = new SimBroker(brokerConfig({ initialBalance: 10_000 }), bars);
    other.processBar(0);
    const short = applyDecision(other, entry('enter_short', 0.01), {
      price,
      budget: 1_000,
      leverage: 3,
      stopOrders: false,
    });
    expect(short.orders.map((o) => o.side)).toEqual(['sell']);
  });

  it('exits reduce-only after cancelling resting orders; holds and impossible sizes send nothing', () => {
    const broker = new SimBroker(brokerConfig({ initialBalance: 10_000 }), bars);
    broker.processBar(0);
    applyDecision(broker, entry('enter_short', 0.05), {
      price: world.bars.close[0] as number,
      budget: 2_000,
      leverage: 2,
    });
    broker.processBar(1);
    expect(broker.positionQty).toBeLessThan(0);
    expect(broker.openOrders).toHaveLength(1);
    const exit = applyDecision(
      broker,
      { ...at(1_700), action: 'exit', reasonCodes: ['exit_signal'] },
      { price: 20_000, budget: 2_000, leverage: 2 },
    );
    expect(exit.orders).toHaveLength(1);
    expect(exit.orders[0]).toMatchObject({
      side: 'buy',
      type: 'market',
      reduceOnly: true,
      tag: AGENT_ORDER_TAGS.exit,
    });
    expect(broker.openOrders).toHaveLength(0);
    broker.processBar(2);
    expect(broker.positionQty).toBe(0);
    expect(
      applyDecision(broker, { ...at(1_700), action: 'exit' }, { price: 20_000, budget: 1, leverage: 1 })
        .skipped,
    ).toBe('flat');
    expect(applyDecision(broker, at(1_700), { price: 20_000, budget: 1, leverage: 1 }).orders).toEqual([]);
    expect(
      applyDecision(broker, entry('enter_long', null), { price: 20_000, budget: 1, leverage: 1 }).skipped,
    ).toBe('size_below_step');
    expect(() => applyDecision(broker, at(1_700), { price: 0, budget: 1, leverage: 1 })).toThrow(
      /price must be positive/,
    );
  });
});
