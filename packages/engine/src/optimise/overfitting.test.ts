import { describe, expect, it } from 'vitest';
import { BarSeries } from '../bars/bars';
import { createRandom } from '../random/prng';
import { emaCrossStrategy } from '../strategies/ema-cross/strategy';
import {
  deflatedSharpe,
  expectedMaxSharpe,
  normalCdf,
  normalQuantile,
  probabilisticSharpe,
  probabilityOfOverfitting,
  randomEntryBaseline,
  returnMoments,
} from './overfitting';
import { OVERFITTING_GATES, overfittingReport } from './overfitting-report';
import { expandGrid, rankResults, runCombos } from './sweep';

/** N strategies × T periods of normal returns (sd 1 %); `edge` adds a drift to one strategy */
function world(seed: number, strategies: number, periods: number, edge?: { index: number; mean: number }) {
  const random = createRandom(seed);
  return Array.from({ length: strategies }, (_, j) => {
    const r = new Float64Array(periods);
    for (let t = 0; t < periods; t++) r[t] = 0.01 * random.normal() + (edge?.index === j ? edge.mean : 0);
    return r;
  });
}

describe('normal distribution', () => {
  it('matches tabulated values of Φ and its inverse', () => {
    expect(normalCdf(1)).toBeCloseTo(0.8413447460685429, 14);
    expect(normalCdf(-3)).toBeCloseTo(0.0013498980316301, 15);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 12);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 12);
    for (const p of [1e-9, 0.01, 0.3, 0.5, 0.8, 0.999999])
      expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 14);
  });
});

describe('probabilistic and deflated Sharpe ratio', () => {
  it('PSR is one half at the benchmark and follows the paper’s formula', () => {
    const m = { count: 251, mean: 0.001, sd: 0.01, skewness: -0.5, kurtosis: 5, sharpe: 0.1 };
    expect(probabilisticSharpe(m, 0.1)).toBeCloseTo(0.5, 12);
    // Φ[(0.1 − 0)·√250 / √(1 + 0.05 + 4/4·0.01)]
    expect(probabilisticSharpe(m, 0)).toBeCloseTo(normalCdf((0.1 * Math.sqrt(250)) / Math.sqrt(1.06)), 12);
  });

  it('expects a maximum Sharpe of about 3.26 standard deviations from 1,000 unskilled trials', () => {
    expect(expectedMaxSharpe(1_000, 1)).toBeCloseTo(3.2552, 3);
    expect(expectedMaxSharpe(1_000, 0.04)).toBeCloseTo(0.2 * 3.2552, 3);
    expect(expectedMaxSharpe(1, 1)).toBe(0);
  });

  it('reads skewness and kurtosis from the returns', () => {
    const m = returnMoments([0.01, -0.01, 0.01, -0.01]);
    expect(m.mean).toBe(0);
    expect(m.skewness).toBe(0);
    expect(m.kurtosis).toBeCloseTo(1, 12);
    expect(returnMoments([1, 1, 1]).sharpe).toBe(0);
  });
});

describe('seeded worlds', () => {
  it('pure noise: the best of 200 looks good in sample, yet PBO is near one half and DSR under the gate', () => {
    const returns = world(7, 200, 1_000);
    const sharpes = returns.map((r) => returnMoments(r).sharpe);
    const best = sharpes.indexOf(Math.max(...sharpes));
    const bestMoments = returnMoments(returns[best] as Float64Array);
    // Undeflated it would pass: the PSR against zero is high
    expect(probabilisticSharpe(bestMoments, 0)).toBeGreaterThan(0.95);
    const dsr = deflatedSharpe(bestMoments, sharpes);
    expect(dsr.trials).toBe(200);
    expect(dsr.dsr).toBeLessThan(OVERFITTING_GATES.dsr);
    const pbo = probabilityOfOverfitting(returns);
    expect(pbo.partitions).toBe(16);
    expect(pbo.splits).toBe(12_870);
    expect(pbo.pbo).toBeGreaterThan(0.4);
  });

  it('a planted signal: its strategy is picked, PBO is near zero and DSR passes', () => {
    const returns = world(7, 200, 1_000, { index: 17, mean: 0.003 });
    const sharpes = returns.map((r) => returnMoments(r).sharpe);
    expect(sharpes.indexOf(Math.max(...sharpes))).toBe(17);
    const dsr = deflatedSharpe(returnMoments(returns[17] as Float64Array), sharpes);
    expect(dsr.dsr).toBeGreaterThan(OVERFITTING_GATES.dsr);
    const pbo = probabilityOfOverfitting(returns);
    expect(pbo.pbo).toBeLessThan(0.05);
    expect(pbo.medianLogit).toBeGreaterThan(3);
  });

  it('PBO names the rules it needs', () => {
    expect(() => probabilityOfOverfitting(world(1, 1, 100))).toThrow(/two strategies/);
    expect(() => probabilityOfOverfitting(world(1, 3, 10), { partitions: 8 })).toThrow(/too few/);
    expect(() => probabilityOfOverfitting(world(1, 3, 100), { partitions: 5 })).toThrow(/even/);
  });
});

/** A rising market with noise: 0.02 % drift (by default) and 0.2 % noise per hour bar */
function risingBars(seed: number, count: number, drift = 0.0002): BarSeries {
  const random = createRandom(seed);
  const series = new BarSeries(3_600_000, count);
  let price = 100;
  for (let i = 0; i < count; i++) {
    const o = price;
    const c = o * Math.exp(drift + 0.002 * random.normal());
    series.openTime[i] = Date.UTC(2025, 0, 1) + i * 3_600_000;
    series.open[i] = o;
    series.close[i] = c;
    series.high[i] = Math.max(o, c) * 1.0005;
    series.low[i] = Math.min(o, c) * 0.9995;
    series.volume[i] = 1_000;
    price = c;
  }
  series.length = count;
  return series;
}

describe('random-entry baseline', () => {
  const bars = risingBars(3, 24 * 200);

  it('gives a luckless strategy a p-value near one half and a large edge the smallest p', () => {
    const common = { close: bars.close, periodBars: 24, trades: 20, exposure: 0.5, samples: 199, seed: 5 };
    const none = randomEntryBaseline({ ...common, observedSharpe: 0 });
    expect(none.pValue).toBeGreaterThan(0.2);
    expect(none.pValue).toBeLessThan(0.8);
    expect(randomEntryBaseline({ ...common, observedSharpe: 5 }).pValue).toBe(1 / 200);
    // Seeded: the same figures twice
    expect(randomEntryBaseline({ ...common, observedSharpe: 0 })).toEqual(none);
  });
});

describe('overfitting report of an engine sweep', () => {
  const bars = risingBars(3, 24 * 200);
  const settings = { broker: { fundingRate: 0, minNotional: 5, tickSize: 0.0001, stepSize: 0.001 } };

  it('finds the known best combination (the largest long position) and lets it pass the gates', () => {
    const combos = expandGrid(
      { side: 'long', leverage: 1 },
      { fast: [5, 10], slow: [20, 40], positionFraction: [0.1, 0.3, 0.6] },
    );
    const results = runCombos(emaCrossStrategy, combos, bars, settings, undefined, 24);
    expect(results.every((r) => r.returns?.length === 200)).toBe(true);
    expect(rankResults(results, 'totalReturn')[0]?.params).toMatchObject({ positionFraction: 0.6 });
    const report = overfittingReport(results, 'totalReturn', { periodBars: 24, close: bars.close });
    expect(report.trials).toBe(12);
    expect(report.periods).toBe(200);
    expect(results[report.bestIndex]?.params).toMatchObject({ positionFraction: 0.6 });
    expect(report.passes).toEqual({ dsr: true, pbo: true, randomEntry: true });
  });

  it('the same sweep on a market without drift fails the gates', () => {
    const flat = risingBars(3, 24 * 200, 0);
    const combos = expandGrid(
      { side: 'long', leverage: 1 },
      { fast: [5, 10], slow: [20, 40], positionFraction: [0.1, 0.3, 0.6] },
    );
    const results = runCombos(emaCrossStrategy, combos, flat, settings, undefined, 24);
    const report = overfittingReport(results, 'totalReturn', { periodBars: 24, close: flat.close });
    expect(report.passes.dsr && report.passes.pbo && report.passes.randomEntry).toBe(false);
  });
});
