import { BacktestStrategyInfoSchema } from '@kestrel/contracts/backtest';
import { describe, expect, it } from 'vitest';
import { computeMetrics } from '../backtest/metrics';
import { type RunSettings, runBacktest } from '../backtest/runner';
import { replayLive } from '../backtest/test-live-replay';
import { metricsInput } from '../backtest/test-metrics-input';
import { BarSeries, generateBars } from '../bars/bars';
import type { StrategyType } from '../strategy/registry';
import { INTERFACE_VERSION } from '../strategy/strategy';
import { builtInStrategies, getBuiltInStrategy, strategyCatalogue } from './built-in';
import { safetyOrderPlan } from './dca/params';
import { dcaStrategy } from './dca/strategy';
import { emaCrossStrategy } from './ema-cross/strategy';
import { gridLevels } from './grid/params';
import { gridStrategy } from './grid/strategy';
import { signalRulesStrategy } from './signal-rules/strategy';

const T0 = Date.UTC(2025, 0, 1, 1, 0);
const settings: RunSettings = {
  broker: { initialBalance: 10_000, slippageBps: 0, minNotional: 5, fundingRate: 0 },
};

/** Bars that move in a straight line between the given closes (open = previous close) */
function path(closes: readonly number[], start = T0): BarSeries {
  const s = new BarSeries(60_000, closes.length);
  let prev = closes[0] as number;
  closes.forEach((c, i) => {
    s.append(start + i * 60_000, prev, Math.max(prev, c), Math.min(prev, c), c, 1);
    prev = c;
  });
  return s;
}

function ramp(from: number, to: number, steps: number): number[] {
  return Array.from({ length: steps }, (_, i) => from + ((to - from) * (i + 1)) / steps);
}

// Per strategy: parameters that trade a lot on the seeded random walk around 50,000
const active: [StrategyType, Record<string, unknown>, string?][] = [
  [emaCrossStrategy, { fast: 5, slow: 20, stopLossPct: 0.01, takeProfitPct: 0.02 }],
  // Without stop-loss and take-profit it ignores fills, so a history-free backtest builds no fill objects
  [emaCrossStrategy, { fast: 5, slow: 20 }, 'ema-cross without SL/TP'],
  [
    gridStrategy,
    { lower: 48_000, upper: 52_000, gridCount: 10, quantityPerGrid: 0.01, direction: 'neutral' },
  ],
  [dcaStrategy, { safetyOrderCount: 4, priceDeviation: 0.002, takeProfit: 0.002, stopLoss: 0.02 }],
  [
    signalRulesStrategy,
    {
      side: 'short',
      entry: [
        {
          left: { kind: 'indicator', name: 'rsi', period: 7 },
          op: 'crossesBelow',
          right: { kind: 'value', value: 55 },
        },
        {
          left: { kind: 'price', field: 'close' },
          op: 'below',
          right: { kind: 'indicator', name: 'bbMiddle', period: 20 },
        },
      ],
      exit: [
        {
          left: { kind: 'indicator', name: 'macdHistogram' },
          op: 'crossesAbove',
          right: { kind: 'value', value: 0 },
        },
      ],
      stopLossPct: 0.01,
    },
  ],
];

describe('built-in strategies', () => {
  it('are registered by id with the current interface version and a JSON schema for forms', () => {
    for (const type of builtInStrategies.values()) {
      expect(type.interfaceVersion).toBe(INTERFACE_VERSION);
      expect(type.paramsJsonSchema()).toMatchObject({ type: 'object' });
    }
    expect(getBuiltInStrategy('grid')).toBe(gridStrategy);
    expect(() => getBuiltInStrategy('nope')).toThrow(/unknown strategy "nope"/);
  });

  it('are listed for the API as its schema says, with defaults every strategy accepts', () => {
    const catalogue = strategyCatalogue();
    expect(catalogue.map((entry) => entry.id)).toEqual([...builtInStrategies.keys()]);
    for (const entry of catalogue) {
      expect(BacktestStrategyInfoSchema.parse(entry)).toEqual(entry);
      expect(getBuiltInStrategy(entry.id).parseParams(entry.defaults)).toEqual(entry.defaults);
      expect(Object.keys(entry.paramsJsonSchema.properties as object)).toEqual(Object.keys(entry.defaults));
    }
    expect(catalogue.find((entry) => entry.id === 'ema-cross')?.defaults).toMatchObject({
      fast: 12,
      slow: 26,
    });
  });

  it('reject bad parameters naming the field', () => {
    expect(() => emaCrossStrategy.parseParams({ fast: 30, slow: 10 })).toThrow(
      /ema-cross params: fast: fast must be below slow/,
    );
    expect(() => gridStrategy.parseParams({ gridCount: 1 })).toThrow(/grid params: gridCount/);
    expect(() => dcaStrategy.parseParams({ takeProfit: 'x' })).toThrow(/dca params: takeProfit/);
  });

  describe.each(active.map(([type, params, label]) => ({ id: label ?? type.id, type, params })))(
    '$id',
    ({ type, params }) => {
      const bars = generateBars({ seed: 7, count: 3_000, startTime: T0, volatility: 0.002 });

      it('trades and gives identical results for the same seed', () => {
        const a = runBacktest(type, params, bars, settings);
        const b = runBacktest(
          type,
          params,
          generateBars({ seed: 7, count: 3_000, startTime: T0, volatility: 0.002 }),
          settings,
        );
        expect(a.fills.length).toBeGreaterThan(5);
        expect(b.fills).toEqual(a.fills);
        expect(b.metrics).toEqual(a.metrics);
        const other = runBacktest(
          type,
          params,
          generateBars({ seed: 8, count: 3_000, startTime: T0, volatility: 0.002 }),
          settings,
        );
        expect(other.fills).not.toEqual(a.fills);
      });

      it('makes the same trades live (bar by bar from klines) as in the backtest', () => {
        const backtest = runBacktest(type, params, bars, settings);
        const {
          session: live,
          fills: liveFills,
          equity: liveEquity,
        } = replayLive(type, params, bars, settings);
        expect(liveFills).toEqual(backtest.fills);
        expect(live.broker.trades).toEqual(backtest.trades);
        // The backtest writes most bars' equity in its quiet-bar loop; it must be what bar-by-bar accounting gives
        expect(Array.from(backtest.equity)).toEqual(liveEquity);
        // A sweep's run keeps no history (and may build no fill objects) yet must account for every fill the same
        const bare = runBacktest(type, params, bars, settings, { keepDetails: false });
        expect(Array.from(bare.equity)).toEqual(liveEquity);
        expect(bare.metrics).toEqual(backtest.metrics);
        // Fills are counted on every path (the EMA crossover without SL/TP takes its fused loop here)
        expect(backtest.fillCount).toBe(backtest.fills.length);
        expect(bare.fills).toEqual([]);
        expect(bare.fillCount).toBe(backtest.fills.length);
      });

      it('tracks the same maximum drawdown while running as a scan of its equity curve', () => {
        const { metrics, equity } = runBacktest(type, params, bars, settings);
        const scanned = computeMetrics(
          metricsInput(equity, bars.intervalMs, { initialBalance: metrics.initialBalance }),
        );
        expect(metrics.maxDrawdown).toBeGreaterThan(0);
        expect(metrics.maxDrawdown).toBe(scanned.maxDrawdown);
      });

      it('does not look ahead: cutting off the future leaves past decisions unchanged', () => {
        const full = runBacktest(type, params, bars, settings);
        const cut = runBacktest(type, params, bars.slice(0, 1_500), settings);
        const past = full.fills.filter((f) => f.barIndex < 1_500);
        expect(cut.fills).toEqual(past);
      });
    },
  );
});

describe('EMA crossover on crafted paths', () => {
  it('buys after the fast EMA crosses up and sells after it crosses down, filling at the next open', () => {
    // Flat, then up, then down
    const closes = [...Array(10).fill(100), ...ramp(100, 120, 10), ...ramp(120, 90, 15)];
    const bars = path(closes);
    const r = runBacktest(
      emaCrossStrategy,
      { fast: 2, slow: 5, side: 'long', leverage: 1, positionFraction: 0.5 },
      bars,
      settings,
    );
    const [entry, exit] = r.fills;
    expect(entry?.side).toBe('buy');
    // The cross happens on bar 10 (first rise); the order fills at bar 11's open = bar 10's close
    expect(entry?.barIndex).toBe(11);
    expect(entry?.price).toBe(bars.close[10]);
    expect(exit?.side).toBe('sell');
    expect(exit?.positionAfter).toBe(0);
    expect(r.trades).toHaveLength(1);
    expect(r.trades[0]?.realizedPnl).toBeGreaterThan(0);
  });

  it('stops out at the stop-loss when price falls after entry', () => {
    // Cross up on bar 10, entry at bar 11's open (101), then one bar falls from 102 to 90
    const closes = [...Array(10).fill(100), 101, 102, 90, 90];
    const r = runBacktest(
      emaCrossStrategy,
      { fast: 2, slow: 5, side: 'long', leverage: 1, stopLossPct: 0.05 },
      path(closes),
      settings,
    );
    const sl = r.fills.find((f) => f.tag === 'sl');
    const entry = r.fills[0]?.price as number;
    expect(entry).toBe(101);
    // 101 × 0.95 = 95.95, within half a tick after rounding to the 0.1 tick
    expect(Math.abs((sl?.price as number) - 95.95)).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(sl?.barIndex).toBe(12);
    expect(sl?.positionAfter).toBe(0);
  });
});

describe('Grid on crafted paths', () => {
  it('earns one grid step per completed buy/sell pair (neutral)', () => {
    // Levels 90, 95, 100, 105, 110; start at 100 (empty), oscillate 100 → 94 → 101 → 94 → 101
    const closes = [100, 100, 94, 101, 94, 101, 101];
    const r = runBacktest(
      gridStrategy,
      { lower: 90, upper: 110, gridCount: 4, quantityPerGrid: 1, direction: 'neutral', leverage: 2 },
      path(closes),
      { broker: { ...settings.broker, makerFee: 0 } },
    );
    const trades = r.fills.map((f) => `${f.side}@${f.price}`);
    expect(trades).toEqual(['buy@95', 'sell@100', 'buy@95', 'sell@100']);
    expect(r.metrics.finalEquity).toBeCloseTo(10_010, 9);
  });

  it.each([
    // 2 levels above 100 → buy 2 at market; then the sell at 105 reduces to 1
    {
      direction: 'long',
      closes: [100, 100, 106, 106],
      fills: [
        ['buy', 2, 2],
        ['sell', 1, 1],
      ],
      exit: 'sell',
    },
    // 2 levels below 100 → sell 2 at market; the buy at 95 reduces to 1
    {
      direction: 'short',
      closes: [100, 100, 94, 94],
      fills: [
        ['sell', 2, -2],
        ['buy', 1, -1],
      ],
      exit: 'buy',
    },
  ] as const)(
    'opens the $direction grid’s position at start and closes it reduce-only',
    ({ direction, closes, fills, exit }) => {
      const r = runBacktest(
        gridStrategy,
        { lower: 90, upper: 110, gridCount: 4, quantityPerGrid: 1, direction, leverage: 2 },
        path(closes),
        settings,
      );
      expect(r.fills.map((f) => [f.side, f.quantity, f.positionAfter])).toEqual(fills);
      expect(r.orders.filter((o) => o.side === exit).every((o) => o.reduceOnly)).toBe(true);
    },
  );
});

describe('grid and DCA plans', () => {
  it('spaces grid levels arithmetically or geometrically', () => {
    expect(gridLevels({ lower: 100, upper: 200, gridCount: 4, spacing: 'arithmetic' })).toEqual([
      100, 125, 150, 175, 200,
    ]);
    const geo = gridLevels({ lower: 100, upper: 400, gridCount: 2, spacing: 'geometric' });
    expect(geo[1]).toBeCloseTo(200, 9);
    expect(geo[2]).toBeCloseTo(400, 9);
  });

  it('scales safety-order steps and sizes', () => {
    const plan = safetyOrderPlan(
      dcaStrategy.parseParams({
        safetyOrderCount: 3,
        priceDeviation: 0.01,
        stepScale: 2,
        volumeScale: 3,
        safetyOrderSize: 10,
      }) as never,
    );
    // deviations 1 %, 1 + 2 = 3 %, 3 + 4 = 7 %; sizes 10, 30, 90
    expect(plan.map((p) => p.size)).toEqual([10, 30, 90]);
    const deviations = plan.map((p) => p.deviation);
    [0.01, 0.03, 0.07].forEach((d, i) => {
      expect(deviations[i]).toBeCloseTo(d, 12);
    });
  });
});

describe('DCA on crafted paths', () => {
  it('averages down with scaled safety orders and takes profit from the average entry', () => {
    // base 200 USDT at 100 → 2; SO1 at 99 (−1 %) 200 USDT → 2.02; SO2 at 97.5 (−1 % −1.5 %) 300 USDT → 3.076
    const closes = [100, 100, 99.5, 97, 99, 100.5, 100.5];
    const r = runBacktest(
      dcaStrategy,
      {
        baseOrderSize: 200,
        safetyOrderSize: 200,
        safetyOrderCount: 2,
        priceDeviation: 0.01,
        stepScale: 1.5,
        volumeScale: 1.5,
        takeProfit: 0.01,
      },
      path(closes),
      settings,
    );
    // The first cycle's buys (a new cycle starts after the take-profit)
    const buys = r.fills
      .filter((f) => f.side === 'buy')
      .slice(0, 3)
      .map((f) => [f.price, f.quantity]);
    expect(buys).toEqual([
      [100, 2],
      [99, 2.02],
      [97.5, 3.076],
    ]);
    const avg = (200 + 99 * 2.02 + 97.5 * 3.076) / (2 + 2.02 + 3.076);
    const tp = r.fills.find((f) => f.tag === 'tp');
    expect(tp?.price).toBeCloseTo(Math.round(avg * 1.01 * 10) / 10, 9);
    expect(tp?.positionAfter).toBe(0);
    expect(r.trades[0]?.netPnl).toBeGreaterThan(0);
    expect(r.fills.at(-1)?.tag).toBe('base');
  });
});

describe('Signal rules on crafted paths', () => {
  const rules = {
    entry: [
      { left: { kind: 'price' }, op: 'crossesAbove', right: { kind: 'indicator', name: 'sma', period: 3 } },
    ],
    exit: [
      { left: { kind: 'price' }, op: 'crossesBelow', right: { kind: 'indicator', name: 'sma', period: 3 } },
    ],
    leverage: 1,
  };

  it('enters when the close crosses above its SMA and exits when it crosses below', () => {
    // SMA(3) is stable from bar 2; bar 3 (13) crosses above it, bar 6 (8) crosses below
    const bars = path([10, 10, 10, 13, 14, 15, 8, 8]);
    const r = runBacktest(signalRulesStrategy, rules, bars, settings);
    expect(r.fills.map((f) => [f.barIndex, f.side, f.price])).toEqual([
      [4, 'buy', 13],
      [7, 'sell', 8],
    ]);
  });

  it('names a malformed rule', () => {
    expect(() =>
      signalRulesStrategy.parseParams({
        entry: [
          { left: { kind: 'indicator', name: 'nope' }, op: 'above', right: { kind: 'value', value: 1 } },
        ],
      }),
    ).toThrow(/signal-rules params: entry\.0\.left\.name/);
  });
});
