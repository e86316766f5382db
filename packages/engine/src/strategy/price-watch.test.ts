import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lookaheadCheck } from '../backtest/lookahead';
import { resolveBrokerConfig, runBacktest } from '../backtest/runner';
import { SimBroker } from '../broker/sim-broker';
import { dcaStrategy } from '../strategies/dca/strategy';
import { gridStrategy } from '../strategies/grid/strategy';
import { strategyType } from './registry';
import { INTERFACE_VERSION, type StrategyContext } from './strategy';
import { StrategyDriver } from './strategy-driver';
import { bars, frictionless } from './test-bars';

const settings = frictionless;

const grid = { lower: 90, upper: 110, gridCount: 4, quantityPerGrid: 1, direction: 'long', leverage: 2 };

describe('a strategy woken by the price (onPrice, watchPrice)', () => {
  it('grid: the break-out closes at the edge of the band inside the bar, though the bar closes back inside', () => {
    // Long grid 90–110 (levels 90, 95, 100, 105, 110), stop 10 % outside: the band's low is 81. Bar 1 falls to 80
    // and closes at 92: at the close the grid would never have stopped, at the price it stops at 81
    const r = runBacktest(
      gridStrategy,
      { ...grid, stopOutsidePct: 0.1 },
      bars([
        [100, 100, 100, 100],
        [100, 101, 80, 92],
        [92, 93, 91, 92],
      ]),
      settings,
    );
    const exit = r.fills.at(-1);
    expect(exit).toMatchObject({ side: 'sell', price: 81, barIndex: 1, positionAfter: 0 });
    // Everything else was canceled with it: nothing rests, nothing fills after the break-out
    expect(r.orders.filter((o) => o.status === 'open')).toEqual([]);
    expect(r.fills.filter((f) => f.barIndex > 1)).toEqual([]);
  });

  it('an open beyond the band wakes the strategy at the open, where the price is, and its order fills there', () => {
    const woken: number[] = [];
    const gapWatcher = strategyType({
      id: 'gap-watcher',
      name: 'gap watcher',
      description: 'buys 1 at the first close, sells it when the price leaves 98–102',
      interfaceVersion: INTERFACE_VERSION,
      params: z.object({}),
      warmupBars: () => 1,
      create: () => ({
        onBar(ctx: StrategyContext) {
          if (ctx.index !== 0) return;
          ctx.broker.submit({ side: 'buy', type: 'market', quantity: 1 });
          ctx.watchPrice(98, 102);
        },
        onPrice(ctx: StrategyContext) {
          woken.push(ctx.price);
          ctx.broker.submit({ side: 'sell', type: 'market', quantity: 1, reduceOnly: true });
        },
      }),
    });
    // Bar 1 opens at 100 (the buy fills), bar 2 gaps up to 110: woken at 110, not at the band's edge (102)
    const r = runBacktest(
      gapWatcher,
      {},
      bars([
        [100, 100, 100, 100],
        [100, 100.5, 99.5, 100],
        [110, 111, 109, 110],
      ]),
      settings,
    );
    expect(woken).toEqual([110]);
    expect(r.fills.map((f) => [f.side, f.price, f.barIndex])).toEqual([
      ['buy', 100, 1],
      ['sell', 110, 2],
    ]);
  });

  it('the band is one-shot: a strategy that arms it again is woken again, at each edge in path order', () => {
    const woken: number[] = [];
    const watcher = strategyType({
      id: 'watcher',
      name: 'watcher',
      description: 'arms a 2-wide band around each price it is woken at',
      interfaceVersion: INTERFACE_VERSION,
      params: z.object({}),
      warmupBars: () => 1,
      create: () => ({
        onBar(ctx: StrategyContext) {
          if (ctx.index === 0) ctx.watchPrice(ctx.price - 2, ctx.price + 2);
        },
        onPrice(ctx: StrategyContext) {
          woken.push(ctx.price);
          ctx.watchPrice(ctx.price - 2, ctx.price + 2);
        },
      }),
    });
    // Bar 1 is a down bar (open → high → low → close): up to 105, down to 97
    runBacktest(
      watcher,
      {},
      bars([
        [100, 100, 100, 100],
        [100, 105, 97, 98],
      ]),
      settings,
    );
    expect(woken).toEqual([102, 104, 102, 100, 98]);
  });

  it('a recorded path inside a bar is walked in its order: the same bar fills differently along it', () => {
    // Neutral grid, levels 90…110, started at 100: buy 95, sell 105. Bar 1 closes up, so without a path it is
    // walked open → low → high → close: the buy at 95 fills first and its counter-sell at 100 on the way up, then
    // the sell at 105. The recorded path went up to 106 first: the sell at 105 fills first (a short), answered by
    // a buy at 100 on the way down, then the buy at 95, answered by a sell at 100 on the way up to the close (the
    // bar's high and low were reached by the path: they are not walked again)
    const series = bars([
      [100, 100, 100, 100],
      [100, 106, 94, 101],
    ]);
    const params = { ...grid, direction: 'neutral' };
    const usual = runBacktest(gridStrategy, params, series, settings);
    const along = runBacktest(gridStrategy, params, series, settings, { paths: new Map([[1, [106, 94]]]) });
    expect(usual.fills.map((f) => [f.side, f.price])).toEqual([
      ['buy', 95],
      ['sell', 100],
      ['sell', 105],
    ]);
    expect(along.fills.map((f) => [f.side, f.price])).toEqual([
      ['sell', 105],
      ['buy', 100],
      ['buy', 95],
      ['sell', 100],
    ]);
    // A path that only repeats what the usual order does changes nothing
    const same = runBacktest(gridStrategy, params, series, settings, { paths: new Map([[1, [94, 106]]]) });
    expect(same.fills).toEqual(usual.fills);
  });

  it('walking a path point by point (a paper bot on live prices) is the same as walking it in one go', () => {
    const series = bars([
      [100, 100, 100, 100],
      [100, 106, 94, 101],
      [101, 103, 88, 89],
    ]);
    const path = [103, 96, 104, 94, 106];
    const config = resolveBrokerConfig(settings);
    const params = { ...grid, direction: 'neutral', stopOutsidePct: 0.01 };
    const oneGo = runBacktest(gridStrategy, params, series, settings, { paths: new Map([[1, path]]) });

    const broker = new SimBroker(config, series, true);
    const driver = new StrategyDriver(gridStrategy, params, series, broker);
    driver.reactInsideBars(broker);
    broker.processBar(0);
    driver.onBarClosed(0, broker.newFills);
    broker.beginBar(1);
    for (const p of path) broker.moveTo(p);
    broker.finishBar();
    driver.onBarClosed(1, broker.newFills);
    broker.processBar(2);
    driver.onBarClosed(2, broker.newFills);
    expect(broker.fills).toEqual(oneGo.fills);
    // Bar 2 leaves the band (its low 88 is below 90 × 0.99): the break-out closed the position there
    expect(broker.fills.at(-1)).toMatchObject({ price: 89.1, barIndex: 2, positionAfter: 0 });
  });

  it('passes the look-ahead check with the break-out watched on the price', () => {
    const rows: [number, number, number, number][] = [];
    let p = 100;
    for (let i = 0; i < 300; i++) {
      const next = p * (1 + Math.sin(i * 0.37) * 0.02);
      rows.push([p, Math.max(p, next) * 1.004, Math.min(p, next) * 0.996, next]);
      p = next;
    }
    const check = lookaheadCheck(
      gridStrategy,
      { lower: 85, upper: 115, gridCount: 10, quantityPerGrid: 0.5, leverage: 2, stopOutsidePct: 0.02 },
      bars(rows),
      settings,
    );
    expect(check.firstDifference).toBeNull();
    expect(check.clean).toBe(true);
  });
});

describe('DCA trailing take-profit (the exchange trailing stop, armed at the target)', () => {
  const dca = {
    baseOrderSize: 1_000,
    safetyOrderCount: 0,
    takeProfit: 0.02,
    leverage: 1,
  };

  it('follows the price past the target and closes when it comes back the deviation', () => {
    // Base buy at 100 (bar 1's open); target 102. Bar 2 goes to 110 (an up bar: low first), bar 3 falls to 104:
    // the trailing stop sells at 110 × (1 − 0.01) = 108.9, where a fixed take-profit sold at 102
    const series = bars([
      [100, 100, 100, 100],
      [100, 100.5, 99.5, 100],
      [100, 110, 99.8, 109],
      [109, 109, 104, 105],
    ]);
    const fixed = runBacktest(dcaStrategy, dca, series, settings);
    const trailing = runBacktest(dcaStrategy, { ...dca, trailingDeviation: 0.01 }, series, settings);
    expect(fixed.fills.map((f) => [f.side, f.price, f.barIndex])).toEqual([
      ['buy', 100, 1],
      ['sell', 102, 2],
      ['buy', 109, 3],
    ]);
    expect(trailing.fills.slice(0, 2).map((f) => [f.side, f.price, f.barIndex])).toEqual([
      ['buy', 100, 1],
      ['sell', 108.9, 3],
    ]);
    expect(trailing.orders.find((o) => o.tag === 'tp')).toMatchObject({ type: 'trailing-stop-market' });
  });

  it('refuses a deviation the exchange cannot take', () => {
    expect(dcaStrategy.paramsSchema.safeParse({ trailingDeviation: 0.0005 }).success).toBe(false);
    expect(dcaStrategy.paramsSchema.safeParse({ trailingDeviation: 0.0125 }).success).toBe(false);
    expect(dcaStrategy.paramsSchema.safeParse({ trailingDeviation: 0.2 }).success).toBe(false);
    expect(dcaStrategy.paramsSchema.safeParse({ trailingDeviation: 0.012 }).success).toBe(true);
  });
});
