import { describe, expect, it } from 'vitest';
import { getBuiltInStrategy } from '../strategies/built-in';
import { bars, frictionless } from '../strategy/test-bars';
import { whyNoTrade } from './no-trade';
import { runBacktest } from './runner';

/** Ten one-minute bars drifting from 100 to 104.5, never below 99.5 nor above 105 */
const rising = bars(
  Array.from(
    { length: 10 },
    (_, i) => [100 + i * 0.5, 100.5 + i * 0.5, 99.5 + i * 0.5, 100 + i * 0.5] as const,
  ),
);

const run = (strategy: string, params: object, settings = frictionless) => {
  const result = runBacktest(getBuiltInStrategy(strategy), params, rising, settings);
  return { result, why: whyNoTrade(result, rising) };
};

describe('why a run made no trade', () => {
  it('names the price range and the nearest order when the price never reached a grid level', () => {
    const { result, why } = run('grid', {
      lower: 80,
      upper: 90,
      gridCount: 4,
      quantityPerGrid: 1,
      direction: 'long',
    });
    expect(result.metrics.tradeCount).toBe(0);
    expect(why).toMatch(
      /^\d+ orders waited and none filled: the price moved between 99\.5 and 105, and the nearest \(buy at 87\.5\) stayed 12\.06 % away\.$/,
    );
  });

  it('says a position was opened and is still open when fills came but none closed a trade', () => {
    // A DCA long buys at once and waits for a take-profit the market never gives
    const { result, why } = run('dca', {
      baseOrderSize: 100,
      safetyOrderCount: 0,
      takeProfit: 0.5,
      leverage: 1,
    });
    expect(result.fillCount).toBeGreaterThan(0);
    expect(why).toBe(
      'No trade closed: 1 fill opened a position still open at the end (its result is in the return, at the last close).',
    );
  });

  it("gives the exchange's reason when its rules rejected the orders", () => {
    // Below the broker's minimum notional (5 USDT): every entry is refused
    const { result, why } = run('dca', {
      baseOrderSize: 1,
      safetyOrderSize: 1,
      safetyOrderCount: 0,
      leverage: 1,
    });
    expect(result.rejectedOrders).toBeGreaterThan(0);
    expect(why).toMatch(/^The exchange's rules rejected \d+ orders? and none filled: .*notional/i);
  });

  it('says so when the strategy placed no order at all, and nothing when it traded', () => {
    const flat = run('ema-cross', { fast: 2, slow: 3 });
    expect(flat.result.orders).toEqual([]);
    expect(flat.why).toBe(
      'The strategy placed no order in these 10 bars: its entry condition never held. A longer period or other parameters may trade.',
    );
    const swinging = bars(Array.from({ length: 10 }, () => [100, 101.5, 98.5, 100] as const));
    const params = { lower: 98, upper: 102, gridCount: 4, quantityPerGrid: 1, direction: 'neutral' };
    const traded = runBacktest(getBuiltInStrategy('grid'), params, swinging, frictionless);
    expect(traded.metrics.tradeCount).toBeGreaterThan(0);
    expect(whyNoTrade(traded, swinging)).toBeNull();
  });
});
