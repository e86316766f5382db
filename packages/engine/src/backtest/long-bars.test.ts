import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BarSeries, generateBars } from '../bars/bars';
import { barOpenAtOrAfter, intervalToMs, nextBarOpenTime } from '../bars/intervals';
import { appendBarOf } from '../bars/test-bars';
import { nextFundingTime } from '../futures/funding';
import { builtInStrategies } from '../strategies/built-in';
import { emaCrossStrategy } from '../strategies/ema-cross/strategy';
import { strategyType } from '../strategy/registry';
import { INTERFACE_VERSION, type StrategyContext } from '../strategy/strategy';
import { lookaheadCheck } from './lookahead';
import { computeMetrics } from './metrics';
import { type RunSettings, runBacktest } from './runner';
import { replayLive } from './test-live-replay';
import { metricsInput } from './test-metrics-input';

/**
 * 3d, 1w and 1M bars on hand-built series: funding that falls inside a long bar, metrics annualised from bars
 * longer than a day, irregular month lengths through the quiet-bar loop, and the lookahead check.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Bars at the interval's real open times (1M: the 1st of each month), prices from `closes` (open = last close) */
function series(interval: string, start: number, closes: readonly number[]): BarSeries {
  const bars = new BarSeries(intervalToMs(interval), closes.length);
  let open = start;
  let prev = closes[0] as number;
  for (const c of closes) {
    bars.append(open, prev, Math.max(prev, c), Math.min(prev, c), c, 10);
    open = nextBarOpenTime(interval, open);
    prev = c;
  }
  return bars;
}

/** The same prices as `source`, at the interval's real open times */
function retime(interval: string, start: number, source: BarSeries): BarSeries {
  const bars = new BarSeries(intervalToMs(interval), source.length);
  let open = start;
  for (let i = 0; i < source.length; i++) {
    appendBarOf(bars, source, i, open);
    open = nextBarOpenTime(interval, open);
  }
  return bars;
}

/** Buys `quantity` at the first bar's close (filled at the second bar's open) and holds */
const buyAndHold = strategyType({
  id: 'buy-and-hold',
  name: 'buy and hold',
  description: 'test strategy',
  interfaceVersion: INTERFACE_VERSION,
  params: z.object({ quantity: z.number().default(1) }),
  warmupBars: () => 0,
  create: ({ quantity }) => ({
    onBar(ctx: StrategyContext) {
      if (ctx.index === 0) ctx.broker.submit({ side: 'buy', type: 'market', quantity });
    },
  }),
});

/** Funding times (00/08/16 UTC) in (from, to], the ones settled at the open `to` after a bar opening at `from` */
function fundingTimesSettledAt(from: number, to: number): number[] {
  const out: number[] = [];
  for (let t = nextFundingTime(from + 1); t <= to; t += 8 * HOUR) out.push(t);
  return out;
}

const costs: RunSettings = { broker: { slippageBps: 0, minNotional: 5, takerFee: 0, fundingRate: 0.0001 } };

describe('funding on bars longer than 8 hours', () => {
  it('1d (the existing rule): the 08:00, 16:00 and next 00:00 fundings settle together at the next open', () => {
    const bars = series('1d', Date.UTC(2025, 0, 1), [100, 100, 110, 120]);
    const result = runBacktest(buyAndHold, { quantity: 1 }, bars, costs);
    // Filled at bar 1's open (2 Jan 00:00, after that bar's 00:00 funding); bar 2 opens at 100 (bar 1's close) and
    // settles three fundings, bar 3 at 110 three more
    expect(result.metrics.fundingPaid).toBeCloseTo(3 * 100 * 0.0001 + 3 * 110 * 0.0001, 12);
  });

  it('1M: every funding time inside a month settles at the next month’s open, each at its own rate', () => {
    const start = Date.UTC(2025, 0, 1);
    const bars = series('1M', start, [100, 100, 200, 300]);
    const feb = Date.UTC(2025, 1, 1);
    const mar = Date.UTC(2025, 2, 1);
    const apr = Date.UTC(2025, 3, 1);
    // A distinct rate per funding time: a settlement that used the wrong time's rate would show
    const time: number[] = [];
    const rate: number[] = [];
    for (let t = start; t <= apr; t += 8 * HOUR) {
      time.push(t);
      rate.push(0.0001 * (1 + (time.length % 7)));
    }
    const rateAt = (t: number) => rate[time.indexOf(t)] as number;
    const settings: RunSettings = { ...costs, fundingRates: { time, rate } };

    const inFeb = fundingTimesSettledAt(feb, mar);
    const inMar = fundingTimesSettledAt(mar, apr);
    // February 2025 has 28 days, March 31: 84 and 93 fundings, the last one at the next month's 00:00
    expect(inFeb).toHaveLength(84);
    expect(inMar).toHaveLength(93);
    expect(inFeb.at(-1)).toBe(mar);
    const expected =
      inFeb.reduce((sum, t) => sum + 100 * rateAt(t), 0) + inMar.reduce((sum, t) => sum + 200 * rateAt(t), 0);

    const result = runBacktest(buyAndHold, { quantity: 1 }, bars, settings);
    expect(result.fills.map((f) => [f.time, f.price])).toEqual([[feb, 100]]);
    expect(result.metrics.fundingPaid).toBeCloseTo(expected, 10);
    // Each month opens at the previous close: March at 100, April at 200. Equity at April's close (300): cash −
    // funding + unrealised PnL, no fees
    expect(result.equity[3]).toBeCloseTo(10_000 - expected + 200, 8);
  });

  it('3d, 1w and 1M: the quiet-bar loop settles exactly as bar-by-bar accounting does', () => {
    const walk = generateBars({ seed: 11, count: 400, volatility: 0.03, startTime: 0 });
    // From the first bar open at or after each date: 3 January 2020 (a multiple of 3 days), Monday 6 January 2020,
    // 1 January 2000
    const cases: [string, number][] = [
      ['3d', Date.UTC(2020, 0, 2)],
      ['1w', Date.UTC(2020, 0, 2)],
      ['1M', Date.UTC(2000, 0, 1)],
    ];
    for (const [interval, from] of cases) {
      const bars = retime(interval, barOpenAtOrAfter(interval, from), walk);
      const params = { fast: 5, slow: 20 };
      const backtest = runBacktest(emaCrossStrategy, params, bars, costs);
      const { session: live, equity } = replayLive(emaCrossStrategy, params, bars, costs);
      expect(Math.abs(backtest.metrics.fundingPaid), interval).toBeGreaterThan(0);
      expect(backtest.metrics.fundingPaid, interval).toBe(live.broker.fundingPaid);
      expect(Array.from(backtest.equity), interval).toEqual(equity);
    }
  });
});

describe('metrics on bars longer than a day', () => {
  it('1M: twelve monthly bars are one year, returns annualised with 12 periods a year', () => {
    const equity = Float64Array.of(101, 103, 99, 104, 108, 107, 111, 115, 112, 118, 121, 120);
    const m = computeMetrics(metricsInput(equity, intervalToMs('1M')));
    expect(m.totalReturn).toBeCloseTo(0.2, 12);
    // One year: the annualised return is the total return
    expect(m.annualisedReturn).toBeCloseTo(0.2, 12);
    const rs: number[] = [];
    let prev = 100;
    for (const e of equity) {
      rs.push(e / prev - 1);
      prev = e;
    }
    const mean = rs.reduce((a, b) => a + b) / rs.length;
    const sd = Math.sqrt(rs.reduce((a, r) => a + (r - mean) ** 2, 0) / (rs.length - 1));
    expect(m.sharpe).toBeCloseTo((mean / sd) * Math.sqrt(12), 9);
  });

  it('1w and 3d: per-bar returns, 365/7 and 365/3 periods a year', () => {
    const equity = Float64Array.of(101, 99, 102, 104);
    const rs = [0.01, 99 / 101 - 1, 102 / 99 - 1, 104 / 102 - 1];
    const mean = rs.reduce((a, b) => a + b) / 4;
    const sd = Math.sqrt(rs.reduce((a, r) => a + (r - mean) ** 2, 0) / 3);
    for (const [interval, days] of [
      ['1w', 7],
      ['3d', 3],
    ] as const) {
      const m = computeMetrics(metricsInput(equity, intervalToMs(interval)));
      expect(m.sharpe, interval).toBeCloseTo((mean / sd) * Math.sqrt(365 / days), 9);
      expect(m.annualisedReturn, interval).toBeCloseTo(1.04 ** (365 / (4 * days)) - 1, 9);
    }
  });

  it('a backtest on monthly bars reports them through the runner the same way', () => {
    const bars = series(
      '1M',
      Date.UTC(2024, 0, 1),
      [100, 100, 110, 121, 121, 121, 121, 121, 121, 121, 121, 121],
    );
    const result = runBacktest(buyAndHold, { quantity: 10 }, bars, {
      broker: { ...costs.broker, fundingRate: 0 },
    });
    // 10 bought at 100 on 1 February, worth 1210 at the end: +210 on 10 000 over twelve months
    expect(result.metrics.totalReturn).toBeCloseTo(0.021, 12);
    expect(result.metrics.annualisedReturn).toBeCloseTo(0.021, 12);
  });
});

describe('lookahead check on long bars', () => {
  it('passes every built-in strategy on weekly and monthly bars', () => {
    const walk = generateBars({ seed: 5, count: 300, volatility: 0.04, startTime: 0, startPrice: 100 });
    for (const [interval, start] of [
      ['1w', Date.UTC(2019, 11, 30)],
      ['1M', Date.UTC(2001, 0, 1)],
    ] as const) {
      const bars = retime(interval, start, walk);
      for (const type of builtInStrategies.values()) {
        const report = lookaheadCheck(type, {}, bars, { broker: { minNotional: 5 } });
        expect(report.clean, `${type.id} on ${interval}`).toBe(true);
      }
    }
  });
});

describe('bar times', () => {
  it('the helpers build series at the real open times (months 28 to 31 days apart)', () => {
    const bars = series('1M', Date.UTC(2024, 0, 1), [1, 1, 1, 1]);
    const gaps = [1, 2, 3].map(
      (i) => ((bars.openTime[i] as number) - (bars.openTime[i - 1] as number)) / DAY,
    );
    expect(gaps).toEqual([31, 29, 31]);
    expect(barOpenAtOrAfter('3d', Date.UTC(2020, 0, 2))).toBe(Date.UTC(2020, 0, 3));
    expect(barOpenAtOrAfter('1w', Date.UTC(2020, 0, 2))).toBe(Date.UTC(2020, 0, 6));
  });
});
