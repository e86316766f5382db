import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BarSeries, generateBars } from '../bars/bars';
import { appendBarOf } from '../bars/test-bars';
import { EngineInputError, StrategyError } from '../errors';
import { emaCrossStrategy } from '../strategies/ema-cross/strategy';
import { GuardedStrategy } from '../strategy/guarded-strategy';
import { strategyType } from '../strategy/registry';
import { hasBacktestFastPath, INTERFACE_VERSION, type StrategyContext } from '../strategy/strategy';
import { computeMetrics } from './metrics';
import { runBacktest } from './runner';
import { replayLive } from './test-live-replay';
import { metricsInput } from './test-metrics-input';

const T0 = Date.UTC(2025, 0, 1, 1, 0);

function probe(onBar: (ctx: StrategyContext) => void) {
  return strategyType({
    id: 'probe',
    name: 'probe',
    description: 'test strategy',
    interfaceVersion: INTERFACE_VERSION,
    params: z.object({}),
    warmupBars: () => 0,
    create: () => ({ onBar }),
  });
}

describe('runner guard rails', () => {
  const bars = generateBars({ seed: 1, count: 50, startTime: T0 });

  it('turns a throw inside a strategy into a StrategyError naming strategy, hook and bar', () => {
    const type = probe((ctx) => {
      if (ctx.index === 7) throw new Error('boom');
    });
    expect(() => runBacktest(type, {}, bars)).toThrow(StrategyError);
    expect(() => runBacktest(type, {}, bars)).toThrow('strategy "probe" failed in onBar at bar 7: boom');
  });

  it('refuses to read a future bar', () => {
    const type = probe((ctx) => {
      ctx.close(-1);
    });
    expect(() => runBacktest(type, {}, bars)).toThrow(/lookahead/);
  });

  it('fails fast when a strategy sends a NaN quantity', () => {
    const type = probe((ctx) => {
      ctx.broker.submit({ side: 'buy', type: 'market', quantity: Number.NaN });
    });
    try {
      runBacktest(type, {}, bars);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(StrategyError);
      expect((error as StrategyError).cause).toBeInstanceOf(EngineInputError);
    }
  });

  it('hands the strategy frozen parameters', () => {
    const type = strategyType({
      id: 'mutator',
      name: 'mutator',
      description: 'tries to change its parameters',
      interfaceVersion: INTERFACE_VERSION,
      params: z.object({ levels: z.array(z.number()).default([1, 2]) }),
      warmupBars: () => 0,
      create: (p) => ({
        onBar: () => {
          p.levels.push(3);
        },
      }),
    });
    const params = { levels: [1, 2] };
    expect(() => runBacktest(type, params, bars)).toThrow(StrategyError);
    expect(params.levels).toEqual([1, 2]);
  });

  it('runs a strategy with only onBar on every bar, and uses the speed hooks of one that has them', () => {
    const seen: number[] = [];
    const plain = { onBar: (ctx: StrategyContext) => void seen.push(ctx.index) };
    expect(hasBacktestFastPath(plain)).toBe(false);
    runBacktest(probe(plain.onBar), {}, bars, {}, { keepDetails: false });
    expect(seen).toEqual(Array.from({ length: bars.length }, (_, i) => i));

    const woken: number[] = [];
    const sparse = {
      onBar: (ctx: StrategyContext) => void woken.push(ctx.index),
      // Wakes every tenth bar: the loop skips the others
      idleUntil: (i: number) => i + 10,
    };
    expect(hasBacktestFastPath(sparse)).toBe(true);
    const type = strategyType({
      id: 'sparse',
      name: 'sparse',
      description: 'test strategy',
      interfaceVersion: INTERFACE_VERSION,
      params: z.object({}),
      warmupBars: () => 0,
      create: () => sparse,
    });
    runBacktest(type, {}, bars);
    expect(woken).toEqual([0, 10, 20, 30, 40]);
  });

  it('names the strategy when a speed hook fails or answers nonsense', () => {
    const guarded = (hooks: object) => new GuardedStrategy('hooked', { onBar: () => {}, ...hooks });
    expect(() => guarded({ idleUntil: (i: number) => i }).idleUntil(4)).toThrow(
      'strategy "hooked" failed in idleUntil at bar 4: idleUntil(4) returned 4, expected a later bar index',
    );
    expect(() =>
      guarded({
        prepare: () => {
          throw new Error('no columns');
        },
      }).prepare(bars, new Map()),
    ).toThrow(/strategy "hooked" failed in prepare.*no columns/);
    // Without the hooks: the generic loop's defaults
    expect(guarded({}).idleUntil(4)).toBe(5);
    expect(guarded({}).needsFills()).toBe(false);
    expect(new GuardedStrategy('filled', { onBar: () => {}, onFill: () => {} }).needsFills()).toBe(true);
  });

  it('names the bad broker setting', () => {
    expect(() =>
      runBacktest(
        probe(() => {}),
        {},
        bars,
        { broker: { leverage: 500 } },
      ),
    ).toThrow(/broker settings: leverage/);
  });

  it('rejects bars that are out of order or inconsistent', () => {
    const s = new BarSeries(60_000);
    s.append(T0, 1, 2, 0.5, 1.5, 1);
    expect(() => s.append(T0, 1, 2, 0.5, 1.5, 1)).toThrow(/not after the previous bar/);
    expect(() => s.append(T0 + 60_000, 1, 1.2, 0.5, 1.5, 1)).toThrow(/high\/low must contain/);
    expect(() => s.append(T0 + 60_000, Number.NaN, 2, 0.5, 1.5, 1)).toThrow(
      /bar 1 open must be a finite number/,
    );
  });
});

describe('funding in the quiet-bar loop', () => {
  /** Copies `full` into a series declared as 1m, keeping the bars `keep` accepts */
  function copy(full: BarSeries, keep: (i: number) => boolean): BarSeries {
    const bars = new BarSeries(60_000, full.length);
    for (let i = 0; i < full.length; i++) {
      if (keep(i)) appendBarOf(bars, full, i);
    }
    return bars;
  }

  it.each([
    ['on evenly spaced bars', generateBars({ seed: 3, count: 6_000, startTime: T0, volatility: 0.002 })],
    // Every 8 hours a 30-minute hole covers the funding time (T0 is 01:00, so 08:00 is bar 420 of each 480)
    [
      'after a gap in the data',
      copy(
        generateBars({ seed: 3, count: 6_000, startTime: T0, volatility: 0.002 }),
        (i) => i % 480 < 400 || i % 480 >= 430,
      ),
    ],
    // Bars closer together than the declared interval: the bar index the interval predicts is too early
    [
      'when bars come faster than the declared interval',
      copy(
        generateBars({ seed: 3, count: 6_000, startTime: T0, volatility: 0.002, intervalMs: 30_000 }),
        () => true,
      ),
    ],
  ])(
    'settles on the first bar at or after the funding time %s, exactly as bar-by-bar accounting does',
    (_, bars) => {
      const settings = { broker: { fundingRate: 0.001, minNotional: 5 } };
      const params = { fast: 20, slow: 120 };
      const backtest = runBacktest(emaCrossStrategy, params, bars, settings);
      const { session: live, equity } = replayLive(emaCrossStrategy, params, bars, settings);
      expect(Math.abs(backtest.metrics.fundingPaid)).toBeGreaterThan(0);
      expect(backtest.metrics.fundingPaid).toBe(live.broker.fundingPaid);
      expect(Array.from(backtest.equity)).toEqual(equity);
    },
  );
});

describe('metrics', () => {
  it('computes returns, drawdown and trade figures by hand', () => {
    // 4 days of daily bars: 100 → 120 → 90 → 110 (initial 100)
    const m = computeMetrics({
      equity: Float64Array.of(120, 90, 110, 110),
      length: 4,
      intervalMs: 86_400_000,
      initialBalance: 100,
      trades: [{ netPnl: 30 } as never, { netPnl: -10 } as never, { netPnl: -5 } as never],
      barsInPosition: 3,
      feesPaid: 1,
      fundingPaid: 0.5,
      liquidations: 0,
    });
    expect(m.totalReturn).toBeCloseTo(0.1, 12);
    expect(m.maxDrawdown).toBeCloseTo(0.25, 12); // 120 → 90
    expect(m.winRate).toBeCloseTo(1 / 3, 12);
    expect(m.profitFactor).toBeCloseTo(2, 12); // 30 / 15
    expect(m.exposure).toBe(0.75);
    // daily returns 0.2, −0.25, 0.2222, 0
    const rs = [0.2, -0.25, 110 / 90 - 1, 0];
    const mean = rs.reduce((a, b) => a + b) / 4;
    const sd = Math.sqrt(rs.reduce((a, r) => a + (r - mean) ** 2, 0) / 3);
    expect(m.sharpe).toBeCloseTo((mean / sd) * Math.sqrt(365), 9);
    expect(m.sortino).toBeCloseTo((mean / Math.sqrt(0.0625 / 4)) * Math.sqrt(365), 9);
    expect(m.annualisedReturn).toBeCloseTo(1.1 ** (365 / 4) - 1, 6);
    expect(m.calmar).toBeCloseTo(m.annualisedReturn / 0.25, 6);
  });

  it('reports a profit factor of null without losing trades', () => {
    const m = computeMetrics(metricsInput(Float64Array.of(100), 60_000));
    expect(m.profitFactor).toBeNull();
    expect(m.sharpe).toBe(0);
  });
});
