import { describe, expect, it } from 'vitest';
import { type RunSettings, runBacktest } from '../backtest/runner';
import { generateBars } from '../bars/bars';
import { emaCrossStrategy } from '../strategies/ema-cross/strategy';
import { expandGrid, rankResults, runCombos, runSweep } from './sweep';
import { walkForward, walkForwardWindows } from './walk-forward';

const settings: RunSettings = { broker: { fundingRate: 0, minNotional: 5 } };
const bars = generateBars({ seed: 3, count: 4_000, startTime: Date.UTC(2025, 0, 1, 1), volatility: 0.002 });

describe('parameter sweep', () => {
  it('expands the grid over the base parameters in a stable order', () => {
    expect(expandGrid({ side: 'long' }, { fast: [5, 10], slow: [20, 30, 40] })).toEqual([
      { side: 'long', fast: 5, slow: 20 },
      { side: 'long', fast: 5, slow: 30 },
      { side: 'long', fast: 5, slow: 40 },
      { side: 'long', fast: 10, slow: 20 },
      { side: 'long', fast: 10, slow: 30 },
      { side: 'long', fast: 10, slow: 40 },
    ]);
    expect(() => expandGrid({}, { fast: [] })).toThrow(/fast has no values/);
    const big = Array.from({ length: 400 }, (_, i) => i);
    expect(() => expandGrid({}, { a: big, b: big })).toThrow(/160000 combinations/);
  });

  it('ranks by the objective and reports refused combinations last with the reason', () => {
    const results = runSweep(
      emaCrossStrategy,
      {},
      { fast: [5, 10, 40], slow: [30] },
      bars,
      settings,
      'totalReturn',
    );
    expect(results).toHaveLength(3);
    const last = results.at(-1);
    expect(last?.metrics).toBeNull();
    expect(last?.error).toMatch(/fast must be below slow/);
    const [a, b] = results;
    expect((a?.metrics?.totalReturn as number) >= (b?.metrics?.totalReturn as number)).toBe(true);
    // The same figures as a single backtest with those parameters
    expect(rankResults(results, 'maxDrawdown')[0]?.metrics?.maxDrawdown).toBeLessThanOrEqual(
      Math.min(a?.metrics?.maxDrawdown as number, b?.metrics?.maxDrawdown as number),
    );
  });
});

describe('sweep runs', () => {
  it('give each combination the metrics of its own backtest (shared batch columns change nothing)', () => {
    const combos = expandGrid({}, { fast: [5, 8], stopLossPct: [0, 0.01, 0.02] });
    const results = runCombos(emaCrossStrategy, combos, bars, settings);
    results.forEach((r, i) => {
      expect(r.metrics).toEqual(runBacktest(emaCrossStrategy, combos[i], bars, settings).metrics);
    });
  });
});

describe('walk-forward', () => {
  it('rolls optimisation and test windows forward by one test period', () => {
    expect(walkForwardWindows(100, 40, 20)).toEqual([
      { isStart: 0, isEnd: 40, oosEnd: 60 },
      { isStart: 20, isEnd: 60, oosEnd: 80 },
      { isStart: 40, isEnd: 80, oosEnd: 100 },
    ]);
    expect(() => walkForwardWindows(50, 40, 20)).toThrow(/fewer than one/);
  });

  it('tests the in-sample winner on the following bars and reports both', async () => {
    const report = await walkForward(emaCrossStrategy, {}, { fast: [5, 8], slow: [20, 40] }, bars, settings, {
      inSampleBars: 2_000,
      outSampleBars: 1_000,
      objective: 'totalReturn',
    });
    expect(report.steps).toHaveLength(2);
    for (const step of report.steps) {
      const best = runSweep(
        emaCrossStrategy,
        {},
        { fast: [5, 8], slow: [20, 40] },
        bars.slice(step.isStart, step.isEnd),
        settings,
        'totalReturn',
      )[0];
      expect(step.bestParams).toEqual(best?.params);
      expect(step.inSample).toEqual(best?.metrics);
      expect(step.outOfSample.bars).toBeGreaterThanOrEqual(1_000);
    }
    const compounded = report.steps.reduce((a, s) => a * (1 + s.outOfSample.totalReturn), 1) - 1;
    expect(report.outOfSampleReturn).toBeCloseTo(compounded, 12);
    // The stitched curve covers the test bars once and ends where the steps' growths compound to
    expect(report.stitchedStart).toBe(2_000);
    expect(report.stitchedGrowth).toHaveLength(2_000);
    const growth = report.steps.reduce((a, s) => a * (s.outOfSampleGrowth.at(-1) as number), 1);
    expect(report.stitchedGrowth.at(-1)).toBeCloseTo(growth, 12);
  });

  it('moves the windows by the step and stitches overlapping tests without counting a bar twice', async () => {
    expect(walkForwardWindows(100, 40, 30, 20)).toEqual([
      { isStart: 0, isEnd: 40, oosEnd: 70 },
      { isStart: 20, isEnd: 60, oosEnd: 90 },
    ]);
    expect(() => walkForwardWindows(100, 40, 30, 0)).toThrow(/stepBars/);
    const report = await walkForward(emaCrossStrategy, {}, { fast: [5, 8], slow: [20, 40] }, bars, settings, {
      inSampleBars: 2_000,
      outSampleBars: 1_000,
      stepBars: 500,
    });
    expect(report.steps).toHaveLength(3);
    // 500 + 500 + 1,000 test bars from bar 2,000 on
    expect(report.stitchedGrowth).toHaveLength(2_000);
    const [a, b, c] = report.steps;
    const expected =
      (a?.outOfSampleGrowth[499] as number) *
      (b?.outOfSampleGrowth[499] as number) *
      (c?.outOfSampleGrowth.at(-1) as number);
    expect(report.stitchedGrowth.at(-1)).toBeCloseTo(expected, 12);
  });
});
