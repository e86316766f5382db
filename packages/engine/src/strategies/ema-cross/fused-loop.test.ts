import { describe, expect, it } from 'vitest';
import { type RunSettings, runBacktest } from '../../backtest/runner';
import { BarSeries, generateBars } from '../../bars/bars';
import { emaCrossStrategy } from './strategy';

const T0 = Date.UTC(2025, 0, 1, 0, 0);

/**
 * The fused loop only runs without history, the generic loop (strategy + broker bar by bar) always runs with it:
 * comparing the two is comparing the fused loop with the reference behaviour, setting by setting.
 */
function both(params: Record<string, unknown>, bars: BarSeries, settings: RunSettings) {
  const generic = runBacktest(emaCrossStrategy, params, bars, settings, { keepDetails: true });
  const fused = runBacktest(emaCrossStrategy, params, bars, settings, { keepDetails: false });
  return { generic, fused };
}

function expectSame(params: Record<string, unknown>, bars: BarSeries, settings: RunSettings) {
  const { generic, fused } = both(params, bars, settings);
  expect(Array.from(fused.equity)).toEqual(Array.from(generic.equity));
  expect(fused.metrics).toEqual(generic.metrics);
  // The fused loop counts every execution (liquidations included) as the generic loop's history holds them
  expect(generic.fillCount).toBe(generic.fills.length);
  expect(fused.fillCount).toBe(generic.fills.length);
  return generic;
}

describe('EMA crossover fused backtest loop', () => {
  const bars = generateBars({ seed: 11, count: 20_000, startTime: T0, volatility: 0.002 });

  it.each([
    ['costs on', { broker: { slippageBps: 3, takerFee: 0.0005, fundingRate: 0.0003 } }],
    ['market impact', { broker: { slippageBps: 1, slippageImpact: 0.05 } }],
    ['negative funding every 4 h', { broker: { fundingRate: -0.0004, fundingIntervalHours: 4 as const } }],
    ['isolated margin', { broker: { marginMode: 'isolated' as const, fundingRate: 0.0002 } }],
  ])('gives the generic loop’s equity and metrics with %s', (_, settings) => {
    for (const side of ['both', 'long', 'short']) {
      const generic = expectSame({ fast: 8, slow: 21, side }, bars, settings);
      expect(generic.metrics.tradeCount).toBeGreaterThan(100);
    }
  });

  it('follows historical funding rates as the generic loop does', () => {
    const time = Array.from({ length: 60 }, (_, k) => T0 + k * 8 * 3_600_000);
    const rate = time.map((_, k) => (k % 3 === 0 ? -0.001 : 0.0005 * k));
    const generic = expectSame({ fast: 5, slow: 30 }, bars, { broker: {}, fundingRates: { time, rate } });
    expect(generic.metrics.fundingPaid).not.toBe(0);
  });

  it('liquidates at the same bars and prices at high leverage, in both margin modes', () => {
    const cross = expectSame({ fast: 20, slow: 80, leverage: 50, positionFraction: 0.9 }, bars, {});
    expect(cross.metrics.liquidations).toBeGreaterThan(0);
    const isolated = expectSame({ fast: 20, slow: 80, leverage: 50, positionFraction: 0.2 }, bars, {
      broker: { marginMode: 'isolated' },
    });
    expect(isolated.metrics.liquidations).toBeGreaterThan(1);
  });

  it('rejects the same orders: below the minimum notional, above the bracket cap, without margin', () => {
    const reasons = (r: ReturnType<typeof expectSame>) => new Set(r.orders.map((o) => o.reason));
    const tiny = expectSame({ fast: 5, slow: 20, positionFraction: 0.05, leverage: 1 }, bars, {
      broker: { initialBalance: 1_000, minNotional: 100 },
    });
    expect(reasons(tiny)).toContain('notional must be no smaller than 100 (-4164)');
    const capped = expectSame({ fast: 5, slow: 20, leverage: 125 }, bars, {
      broker: { initialBalance: 10_000_000 },
    });
    expect(reasons(capped)).toContain('position would exceed the maximum notional at this leverage (-2027)');
    const costly = expectSame({ fast: 5, slow: 20, leverage: 20, positionFraction: 1 }, bars, {
      broker: { takerFee: 0.01 },
    });
    expect(reasons(costly)).toContain('margin is insufficient (-2019)');
  });

  it.each([200, 201])(
    'treats a difference of exactly zero as the generic loop does (%i flat bars: no side to run quietly on)',
    (flatBars) => {
      // Constant closes make both EMAs the same number: the difference is exactly 0, and the first move away from
      // it is a crossing for the generic test, whichever bar it falls on
      const walk = generateBars({ seed: 5, count: 3_000, startTime: T0, volatility: 0.002 });
      const bars = new BarSeries(60_000, flatBars + walk.length);
      for (let i = 0; i < flatBars; i++) bars.append(T0 + i * 60_000, 50_000, 50_000, 50_000, 50_000, 10);
      for (let k = 0; k < walk.length; k++) {
        const [o, h, l, c] = [walk.open, walk.high, walk.low, walk.close].map(
          (column) => column[k] as number,
        );
        bars.append(T0 + (flatBars + k) * 60_000, o as number, h as number, l as number, c as number, 10);
      }
      for (const side of ['both', 'long', 'short']) {
        const generic = expectSame({ fast: 5, slow: 20, side }, bars, { broker: { takerFee: 0.0004 } });
        expect(generic.metrics.tradeCount).toBeGreaterThan(20);
      }
    },
  );

  it('stays flat and equal on a series shorter than the slow EMA', () => {
    const short = generateBars({ seed: 3, count: 15, startTime: T0 });
    const generic = expectSame({ fast: 5, slow: 20 }, short, {});
    expect(generic.metrics.tradeCount).toBe(0);
  });

  it('keeps the generic loop when stops need the fills', () => {
    const params = { fast: 8, slow: 21, stopLossPct: 0.01 };
    const generic = expectSame(params, bars, {});
    expect(generic.fills.some((f) => f.tag === 'sl')).toBe(true);
  });
});
