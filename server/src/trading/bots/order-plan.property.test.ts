import { builtInStrategies, checkOrderPlan, roundToStep } from '@kestrel/engine';
import {
  checkNotional,
  checkPriceFilter,
  checkQuantity,
  DEFAULT_SYMBOLS,
  KNOWN_SYMBOLS,
} from '@kestrel/exchange-sim';
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

/**
 * The plan check against the simulator's own filters (Binance's LOT_SIZE, MARKET_LOT_SIZE, PRICE_FILTER,
 * MIN_NOTIONAL, as the simulator applies them to every order it gets): whatever budget, leverage, price and
 * sizes, a plan the check passes is one whose every order, rounded as a bot rounds it, the exchange takes
 */
describe('a plan the check passes, the exchange takes', () => {
  const specs = KNOWN_SYMBOLS.filter((s) => (DEFAULT_SYMBOLS as readonly string[]).includes(s.symbol));

  it('grid and DCA orders on BTCUSDT, ETHUSDT and SOLUSDT, for random markets and sizes', () => {
    let passed = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...specs),
        fc.constantFrom('grid', 'dca'),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        // Up to the largest budget a bot takes, and sizes up to orders past the market lot (120 BTC)
        fc.integer({ min: 10, max: 10_000_000 }),
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0.0001, max: 3, noNaN: true }),
        fc.constantFrom(1, 1_000, 30_000),
        (spec, strategy, priceFactor, budget, leverage, small, scale) => {
          const size = small * scale;
          const type = builtInStrategies.get(strategy);
          if (!type) throw new Error(strategy);
          const price = roundToStep(spec.startPrice * priceFactor, Number(spec.tickSize));
          const params =
            strategy === 'grid'
              ? {
                  lower: price * 0.95,
                  upper: price * 1.05,
                  gridCount: 8,
                  quantityPerGrid: size * 10 ** -spec.quantityPrecision * 50,
                }
              : { baseOrderSize: size * 200, safetyOrderSize: size * 200, safetyOrderCount: 3 };
          const market = { price, budget, leverage };
          const plan = type.plannedOrders(params, market);
          const rules = {
            baseAsset: spec.baseAsset,
            stepSize: Number(spec.stepSize),
            minQty: Number(spec.minQty),
            maxQty: Number(spec.maxQty),
            marketMaxQty: Number(spec.marketMaxQty),
            minNotional: Number(spec.minNotional),
          };
          if (checkOrderPlan(plan, rules, market).length > 0) {
            refused++;
            return;
          }
          passed++;
          for (const o of plan) {
            const market = o.market === true;
            const qty = new Decimal(
              roundToStep(o.quantity, Number(spec.stepSize), 'down').toFixed(spec.quantityPrecision),
            );
            const at = new Decimal(roundToStep(o.price, Number(spec.tickSize)).toFixed(spec.pricePrecision));
            expect(() => checkQuantity(spec, qty, market), `${spec.symbol} ${o.what} ${qty}`).not.toThrow();
            if (!market)
              expect(() => checkPriceFilter(spec, at), `${spec.symbol} ${o.what} at ${at}`).not.toThrow();
            expect(
              () => checkNotional(spec, at, qty, o.reduceOnly),
              `${spec.symbol} ${o.what} ${qty} at ${at}`,
            ).not.toThrow();
          }
        },
      ),
      { numRuns: 500 },
    );
    // Both sides of the check were exercised: plans it passed (held to the exchange) and plans it refused
    expect(passed).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
  });
});
