import { describe, expect, it } from 'vitest';
import { lookaheadCheck } from '../backtest/lookahead';
import { resolveBrokerConfig, runBacktest, StrategyRunner } from '../backtest/runner';
import { replayLive } from '../backtest/test-live-replay';
import { BarSeries } from '../bars/bars';
import { getBuiltInStrategy, strategyCatalogue } from '../strategies/built-in';
import { parseAgentConfig } from './config';
import { MlAgent } from './strategy';
import { agentWorld } from './worlds';

const params = {
  trainBars: 800,
  horizonBars: 4,
  retrainHours: 12,
  feeRate: 0.0002,
  slippage: 0.0001,
  deadZone: 0.0005,
  minPredictionZ: 0.5,
};
const world = agentWorld({ bars: 2_500, seed: 31, phi: 0.3 });
const bars = BarSeries.fromColumns(world.intervalMs, world.bars);

describe('ml-agent strategy', { timeout: 120_000 }, () => {
  it('is a built-in strategy with a defaulted, bounded params schema', () => {
    const type = getBuiltInStrategy('ml-agent');
    expect(type.parseParams({})).toMatchObject({ horizonBars: 12, trainBars: 5_000, entryThreshold: 0.55 });
    expect(() => type.parseParams({ entryThreshold: 2 })).toThrow(/entryThreshold/);
    expect(() => type.parseParams({ trainBars: 200, horizonBars: 100 })).toThrow(/more than four horizons/);
    expect(strategyCatalogue().some((s) => s.id === 'ml-agent')).toBe(true);
    expect(type.warmupBars(params)).toBe(64 + 800 + 4);
  });

  it('retrains walk-forward on the cadence, then trades through applyDecision', () => {
    const result = runBacktest(getBuiltInStrategy('ml-agent'), params, bars, {
      broker: { initialBalance: 10_000, leverage: 2 },
    });
    expect(result.metrics.tradeCount).toBeGreaterThan(5);
    expect(result.fills.every((f) => f.barIndex >= 64 + 800 + 4)).toBe(true);
    expect(result.orders.some((o) => o.type === 'stop-market' && o.reduceOnly)).toBe(true);

    // The agent itself: a retrain every 12 hours of 15-minute bars, each on the last 800 rows whose labels ended
    const agent = new MlAgent(parseAgentConfig(params), world.intervalMs);
    const runner = new StrategyRunner(
      { ...getBuiltInStrategy('ml-agent'), create: () => agent },
      params,
      bars,
      resolveBrokerConfig({}),
      false,
    );
    for (let i = 0; i < bars.length; i++) runner.step(i);
    const gaps = agent.retrains.slice(1).map((r, k) => r.index - (agent.retrains[k]?.index as number));
    expect(new Set(gaps)).toEqual(new Set([48]));
    for (const r of agent.retrains) {
      expect(r.to - r.from).toBe(800);
      expect(r.to - 1 + 4).toBeLessThanOrEqual(r.index);
    }
  });

  it('passes the look-ahead check: cutting the bars never changes an earlier fill', () => {
    const report = lookaheadCheck(getBuiltInStrategy('ml-agent'), params, bars, {}, 3);
    expect(report.firstDifference).toBeNull();
    expect(report.clean).toBe(true);
  });

  it('trades the same live (closed klines one by one, as a paper bot) as in the backtest', () => {
    const settings = { broker: { initialBalance: 10_000, leverage: 2 } };
    const backtest = runBacktest(getBuiltInStrategy('ml-agent'), params, bars, settings);
    const live = replayLive(getBuiltInStrategy('ml-agent'), params, bars, settings);
    expect(backtest.fills.length).toBeGreaterThan(5);
    expect(live.fills).toEqual(backtest.fills);
    expect(Array.from(backtest.equity)).toEqual(live.equity);
  });
});
