import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lookaheadCheck } from '../backtest/lookahead';
import { runBacktest } from '../backtest/runner';
import type { Fill } from '../broker/orders';
import { dcaStrategy } from '../strategies/dca/strategy';
import { emaCrossStrategy } from '../strategies/ema-cross/strategy';
import { gridStrategy } from '../strategies/grid/strategy';
import { strategyType } from './registry';
import { INTERFACE_VERSION, type StrategyContext } from './strategy';
import { bars, frictionless } from './test-bars';

const settings = frictionless;

describe('a fill is answered inside its bar, as a live bot answers it', () => {
  it('grid: the buy filled on the way down has its counter-sell filled on the way back up, in the same bar', () => {
    // Levels 90, 95, 100, 105, 110; the grid starts at the first close (100, empty level). Bar 1 is an up bar
    // (open → low → high → close): down to 94 fills the buy at 95, up to 101 fills the sell at 100 placed for it
    const r = runBacktest(
      gridStrategy,
      { lower: 90, upper: 110, gridCount: 4, quantityPerGrid: 1, direction: 'neutral', leverage: 2 },
      bars([
        [100, 100, 100, 100],
        [100, 101, 94, 100.5],
        [100.5, 100.5, 100.5, 100.5],
      ]),
      settings,
    );
    expect(r.fills.map((f) => [f.side, f.price, f.barIndex])).toEqual([
      ['buy', 95, 1],
      ['sell', 100, 1],
    ]);
    // The level the sell left is bought again at 95 (placed at the sell's fill), resting after the bar
    expect(r.orders.filter((o) => o.status === 'open').map((o) => [o.side, o.price])).toContainEqual([
      'buy',
      95,
    ]);
    expect(r.metrics.finalEquity).toBeCloseTo(10_005, 9);
  });

  it('DCA: the take-profit stands from the entry fill and takes profit in the bar of the entry', () => {
    // The base order fills at bar 1's open (100); the bar rises to 101.5 before it closes: the 1 % take-profit
    // (101) placed at the entry fills on the way up
    const r = runBacktest(
      dcaStrategy,
      {
        baseOrderSize: 200,
        safetyOrderSize: 200,
        safetyOrderCount: 1,
        priceDeviation: 0.05,
        takeProfit: 0.01,
      },
      bars([
        [100, 100, 100, 100],
        [100, 101.5, 99.8, 101.2],
      ]),
      settings,
    );
    const tp = r.fills.find((f) => f.tag === 'tp');
    expect(r.fills[0]).toMatchObject({ tag: 'base', price: 100, barIndex: 1 });
    expect(tp).toMatchObject({ price: 101, barIndex: 1, positionAfter: 0 });
  });

  it('EMA crossover: the stop placed at the entry fill stops out in the entry’s bar', () => {
    // Cross up on bar 10; the entry fills at bar 11's open (101) and bar 11 falls to 95 before closing at 100
    const rows: [number, number, number, number][] = Array.from({ length: 10 }, () => [100, 100, 100, 100]);
    rows.push([100, 101, 100, 101], [101, 101.5, 95, 100], [100, 100, 100, 100]);
    const r = runBacktest(
      emaCrossStrategy,
      { fast: 2, slow: 5, side: 'long', leverage: 1, stopLossPct: 0.05 },
      bars(rows),
      settings,
    );
    const sl = r.fills.find((f) => f.tag === 'sl');
    expect(r.fills[0]).toMatchObject({ price: 101, barIndex: 11 });
    expect(sl?.barIndex).toBe(11);
    // 101 × 0.95 = 95.95, within half a tick after rounding to the 0.1 tick
    expect(Math.abs((sl?.price as number) - 95.95)).toBeLessThanOrEqual(0.05 + 1e-9);
  });

  it('hands the reaction the newest closed bar, never the bar in progress, and keeps the look-ahead check', () => {
    const seen: { fillBar: number; ctxIndex: number; close: number }[] = [];
    const probe = strategyType({
      id: 'probe',
      name: 'probe',
      description: 'buys once, records what its fills see',
      interfaceVersion: INTERFACE_VERSION,
      params: z.object({}),
      warmupBars: () => 1,
      create: () => {
        let bought = false;
        return {
          onBar(ctx: StrategyContext) {
            if (bought) return;
            bought = true;
            ctx.broker.submit({ side: 'buy', type: 'market', quantity: 1, tag: 'entry' });
          },
          onFill(fill: Fill, ctx: StrategyContext) {
            seen.push({ fillBar: fill.barIndex, ctxIndex: ctx.index, close: ctx.close(0) });
            if (fill.tag === 'entry')
              ctx.broker.submit({ side: 'sell', type: 'limit', price: 103, quantity: 1, tag: 'exit' });
          },
        };
      },
    });
    const series = bars([
      [100, 100, 100, 100],
      [100.5, 104, 100.5, 102],
      [102, 102, 102, 102],
    ]);
    const r = runBacktest(probe, {}, series, settings);
    // The entry at bar 1's open and its exit at 103 on the way up, both inside bar 1; both reactions read bar 0
    expect(r.fills.map((f) => [f.tag, f.price, f.barIndex])).toEqual([
      ['entry', 100.5, 1],
      ['exit', 103, 1],
    ]);
    expect(seen).toEqual([
      { fillBar: 1, ctxIndex: 0, close: 100 },
      { fillBar: 1, ctxIndex: 0, close: 100 },
    ]);
    seen.length = 0;
    expect(lookaheadCheck(probe, {}, series, settings).clean).toBe(true);
  });
});
