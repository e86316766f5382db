import { describe, expect, it } from 'vitest';
import { runBacktest } from '../backtest/runner';
import { dcaStrategy } from '../strategies/dca/strategy';
import { emaCrossStrategy } from '../strategies/ema-cross/strategy';
import { gridStrategy } from '../strategies/grid/strategy';
import { checkOrderPlan, planFigures, type SymbolRules } from './order-plan';
import { bars, frictionless } from './test-bars';

const BTC: SymbolRules = {
  baseAsset: 'BTC',
  stepSize: 0.001,
  minQty: 0.001,
  maxQty: 1000,
  minNotional: 100,
};
const SOL: SymbolRules = { baseAsset: 'SOL', stepSize: 1, minQty: 1, maxQty: 100_000, minNotional: 5 };

describe('the orders a strategy’s parameters imply', () => {
  it('grid: the plan is what the grid lays at its start, and the level it starts on', () => {
    const params = {
      lower: 90,
      upper: 110,
      gridCount: 4,
      quantityPerGrid: 1,
      direction: 'long',
      leverage: 2,
    };
    // One bar closing at 101: the grid starts there (nearest level 100) and lays its orders
    const r = runBacktest(gridStrategy, params, bars([[101, 101, 101, 101]]), {
      broker: { ...frictionless.broker, minNotional: 0 },
    });
    const sent = r.orders.map((o) => [
      o.side,
      o.type === 'market' ? 'market' : o.price,
      o.quantity,
      o.reduceOnly,
    ]);
    const plan = gridStrategy.plannedOrders(params, { price: 101, budget: 10_000, leverage: 2 });
    const now = plan.filter((o) => !o.later);
    expect(
      now.map((o) => [o.side, o.what === 'the opening buy' ? 'market' : o.price, o.quantity, o.reduceOnly]),
    ).toEqual(sent);
    // The level it started on gets a sell after the buy below fills: planned, not standing yet
    expect(plan.filter((o) => o.later)).toMatchObject([{ side: 'sell', price: 100, quantity: 1 }]);
  });

  it('DCA: the base order at the price now and each safety order at its distance, sized as the strategy sizes them', () => {
    const params = {
      baseOrderSize: 100,
      safetyOrderSize: 50,
      safetyOrderCount: 2,
      priceDeviation: 0.01,
      stepScale: 2,
      volumeScale: 2,
    };
    const plan = dcaStrategy.plannedOrders(params, { price: 100, budget: 1_000, leverage: 3 });
    expect(plan.map((o) => [o.what, o.price, o.quantity])).toEqual([
      ['the base order', 100, 1],
      ['safety order 1', 99, 50 / 99],
      ['safety order 2', 97, 100 / 97],
    ]);
  });

  it('a DCA base order that buys less than one lot is refused with the smallest size that works', () => {
    // SOL at 160 on a lot of 1: 100 USDT buys 0.625 SOL, which rounds to nothing
    const market = { price: 160, budget: 1_000, leverage: 3 };
    const plan = dcaStrategy.plannedOrders(
      { baseOrderSize: 100, safetyOrderSize: 200, safetyOrderCount: 0 },
      market,
    );
    const problems = checkOrderPlan(plan, SOL, market);
    expect(problems).toEqual([
      {
        param: 'baseOrderSize',
        smallest: 160,
        message:
          'baseOrderSize: 100 makes the base order an order of 0 SOL (0 USDT); the exchange takes at least 1 SOL and ' +
          '5 USDT an order, in steps of 1 SOL: the smallest baseOrderSize that works is 160',
      },
    ]);
    // The smallest it names passes
    const fixed = dcaStrategy.plannedOrders(
      { baseOrderSize: 160, safetyOrderSize: 200, safetyOrderCount: 0 },
      market,
    );
    expect(checkOrderPlan(fixed, SOL, market)).toEqual([]);
  });

  it('a grid level below the minimum notional names the quantity that passes at its lowest level', () => {
    const params = { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.001 };
    const market = { price: 50_000, budget: 1_000, leverage: 5 };
    const [problem, ...rest] = checkOrderPlan(gridStrategy.plannedOrders(params, market), BTC, market);
    expect(rest).toEqual([]);
    // 100 USDT at 49,000 is 0.00204 BTC: three lots of 0.001
    expect(problem).toMatchObject({ param: 'quantityPerGrid', smallest: 0.003 });
    expect(problem?.message).toMatch(
      /^quantityPerGrid: 0\.001 makes the level at 49000 an order of 0\.001 BTC \(49 USDT\)/,
    );
    const fixed = { ...params, quantityPerGrid: 0.003 };
    expect(checkOrderPlan(gridStrategy.plannedOrders(fixed, market), BTC, market)).toEqual([]);
  });

  it('orders that need more margin than the budget name the budget that works', () => {
    // Neutral grid: 5 buys of 0.01 BTC below 50,000 (2,470 USDT) and 5 sells above (2,530 USDT) at 5× need 506 USDT: the larger side
    const params = { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.01 };
    const market = { price: 50_000, budget: 100, leverage: 5 };
    const problems = checkOrderPlan(gridStrategy.plannedOrders(params, market), BTC, market);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ param: 'budget', smallest: 506 });
    expect(problems[0]?.message).toMatch(
      /^budget: its orders need 506 USDT of margin at 5× and the budget is 100 USDT/,
    );
    const enough = { ...market, budget: 506 };
    expect(checkOrderPlan(gridStrategy.plannedOrders(params, enough), BTC, enough)).toEqual([]);
  });

  it('a leverage above the bracket of the position its orders can build is refused, naming the most that works', () => {
    // Neutral grid: 5 buys of 0.1 BTC below 50,000 (24,700 USDT) and 5 sells (25,300 USDT): a position of up to
    // 25,300 USDT, which the second bracket (to 50,000 USDT) allows at 20× at most
    const rules: SymbolRules = {
      ...BTC,
      leverageBrackets: [
        { notionalCap: 10_000, initialLeverage: 50 },
        { notionalCap: 50_000, initialLeverage: 20 },
        { notionalCap: 1_000_000, initialLeverage: 10 },
      ],
    };
    const params = { lower: 49_000, upper: 51_000, gridCount: 10, quantityPerGrid: 0.1 };
    const market = { price: 50_000, budget: 10_000, leverage: 25 };
    const problems = checkOrderPlan(gridStrategy.plannedOrders(params, market), rules, market);
    expect(problems).toEqual([
      {
        param: 'leverage',
        message:
          'leverage: its orders can build a position of 25300 USDT, and the exchange allows at most 20× on a ' +
          'position up to 50000 USDT: the most leverage that works is 20× (or fewer or smaller orders)',
      },
    ]);
    const at20 = { ...market, leverage: 20 };
    expect(checkOrderPlan(gridStrategy.plannedOrders(params, at20), rules, at20)).toEqual([]);
    // Without the account's brackets (no keys) the leverage is not judged here: the exchange judges it at start
    expect(checkOrderPlan(gridStrategy.plannedOrders(params, market), BTC, market)).toEqual([]);
  });

  it('an entry sized from the budget that buys less than one lot names the budget that works', () => {
    const market = { price: 160, budget: 20, leverage: 2 };
    const plan = emaCrossStrategy.plannedOrders({ positionFraction: 0.5 }, market);
    const [problem] = checkOrderPlan(plan, SOL, market);
    // 20 × 0.5 × 2 = 20 USDT buys 0.125 SOL; one SOL at 160 needs a budget of 160
    expect(problem).toMatchObject({ param: 'budget', smallest: 160 });
  });
});

describe('what a plan stands for', () => {
  it("rounds each order as the exchange would, and holds the larger side's value as margin", () => {
    const params = gridStrategy.parseParams({
      lower: 90,
      upper: 110,
      gridCount: 4,
      quantityPerGrid: 1.23456,
      direction: 'neutral',
    });
    const market = { price: 101, budget: 10_000, leverage: 2 };
    const figures = planFigures(gridStrategy.plannedOrders(params, market), BTC, market);
    // Levels 90, 95, 100, 105, 110; the level at the price (100) waits for the first fill's counter-order
    expect(figures.orders.map((o) => [o.side, o.price, o.quantity, o.later === true])).toEqual([
      ['buy', 90, 1.234, false],
      ['buy', 95, 1.234, false],
      ['sell', 100, 1.234, true],
      ['sell', 105, 1.234, false],
      ['sell', 110, 1.234, false],
    ]);
    expect(figures.buyNotional).toBeCloseTo(1.234 * 185, 9);
    expect(figures.sellNotional).toBeCloseTo(1.234 * 215, 9);
    expect(figures.margin).toBeCloseTo((1.234 * 215) / 2, 9);
  });

  it("says what a grid's round trip between neighbouring levels earns after both makers' fees", () => {
    const arithmetic = gridStrategy.levelProfit(
      { lower: 100, upper: 200, gridCount: 10, quantityPerGrid: 2.0004, spacing: 'arithmetic' },
      { fees: { maker: 0.001, taker: 0.002 }, stepSize: 0.001 },
    );
    // Every step is 10: 2 (2.0004 as the exchange takes it) × 10 gross, less 0.1 % of both fills (the widest notional is the top step, 190 + 200)
    expect(arithmetic?.maxNet).toBeCloseTo(20 - 2 * 210 * 0.001, 9);
    expect(arithmetic?.minNet).toBeCloseTo(20 - 2 * 390 * 0.001, 9);
    expect(arithmetic?.maxNetPct).toBeCloseTo((20 - 2 * 210 * 0.001) / 200, 9);
    // A strategy without levels has no round trip
    expect(
      dcaStrategy.levelProfit(dcaStrategy.parseParams({}), {
        fees: { maker: 0.001, taker: 0.002 },
        stepSize: 0.001,
      }),
    ).toBeNull();
  });
});

describe('market orders and the market lot', () => {
  it("holds a DCA base order (a market order) to MARKET_LOT_SIZE's maximum, its resting orders to LOT_SIZE's", () => {
    const rules: SymbolRules = { ...BTC, maxQty: 1000, marketMaxQty: 120 };
    const market = { price: 100_000, budget: 1e9, leverage: 10 };
    const params = dcaStrategy.parseParams({
      baseOrderSize: 13_000_000,
      safetyOrderCount: 1,
      safetyOrderSize: 13_000_000,
    });
    const problems = checkOrderPlan(dcaStrategy.plannedOrders(params, market), rules, market);
    // 130 BTC at market is above 120; the safety order of ~131 BTC rests, so LOT_SIZE's 1,000 holds it
    expect(problems).toEqual([
      {
        param: 'baseOrderSize',
        message:
          "baseOrderSize: the base order would be 130 BTC, above the exchange's largest market order of 120 BTC",
      },
    ]);
    expect(checkOrderPlan(dcaStrategy.plannedOrders(params, market), BTC, market)).toEqual([]);
  });
});
