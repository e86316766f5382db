import { describe, expect, it } from 'vitest';
import {
  BTCUSDT_BRACKETS,
  bracketFor,
  buildBrackets,
  maintenanceMargin,
  maxNotionalAt,
  parseLeverageBrackets,
} from './brackets';
import { fundingFee, nextFundingTime } from './funding';
import { liquidationPrice } from './liquidation';

describe('leverage brackets', () => {
  it('computes cum with the documented recurrence', () => {
    expect(BTCUSDT_BRACKETS.map((b) => b.cum)).toEqual([
      0, 50, 1_300, 46_300, 421_300, 1_921_300, 3_921_300, 6_421_300, 26_421_300, 101_421_300,
    ]);
  });

  it('keeps maintenance margin continuous at a bracket edge', () => {
    // 50,000 × 0.004 − 0 = 200 on both sides of the edge
    expect(maintenanceMargin(BTCUSDT_BRACKETS, 50_000)).toBeCloseTo(200, 9);
    expect(maintenanceMargin(BTCUSDT_BRACKETS, 50_000.01)).toBeCloseTo(200.00005, 6);
    expect(bracketFor(BTCUSDT_BRACKETS, 60_000).bracket).toBe(2);
  });

  it('caps notional by leverage', () => {
    expect(maxNotionalAt(BTCUSDT_BRACKETS, 125)).toBe(50_000);
    expect(maxNotionalAt(BTCUSDT_BRACKETS, 20)).toBe(15_000_000);
  });

  it('parses the exchange reply and names a bad field', () => {
    const reply = [
      {
        symbol: 'ETHUSDT',
        brackets: [
          {
            bracket: 1,
            initialLeverage: 100,
            notionalCap: 10_000,
            notionalFloor: 0,
            maintMarginRatio: 0.005,
            cum: 0,
          },
          {
            bracket: 2,
            initialLeverage: 75,
            notionalCap: 100_000,
            notionalFloor: 10_000,
            maintMarginRatio: 0.0065,
            cum: 15,
          },
        ],
      },
    ];
    expect(parseLeverageBrackets(reply, 'ETHUSDT')[1]?.cum).toBeCloseTo(15, 9);
    expect(() => parseLeverageBrackets(reply, 'BTCUSDT')).toThrow(/no leverage brackets for BTCUSDT/);
    expect(() =>
      buildBrackets([{ initialLeverage: 1, notionalFloor: 0, notionalCap: 1, maintMarginRatio: 2 }]),
    ).toThrow(/maintMarginRatio/);
  });
});

describe('liquidation price', () => {
  it('matches a hand computation for an isolated 10x long', () => {
    // 1 BTC at 10,000 with 1,000 isolated: (1000 + 0 − 10000) / (0.004 − 1) = 9036.1446
    expect(
      liquidationPrice({ qty: 1, entryPrice: 10_000, walletBalance: 1_000, brackets: BTCUSDT_BRACKETS }),
    ).toBeCloseTo(9_036.144578, 5);
  });

  it('matches a hand computation for a short in the second bracket', () => {
    // 2 BTC short at 40,000 (notional 80,000, bracket 2: mmr 0.005, cum 50), 8,000 wallet:
    // (8000 + 50 + 80000) / (0.01 + 2) = 43,805.97
    const lp = liquidationPrice({
      qty: -2,
      entryPrice: 40_000,
      walletBalance: 8_000,
      brackets: BTCUSDT_BRACKETS,
    });
    expect(lp).toBeCloseTo(88_050 / 2.01, 6);
  });

  it('is 0 when the wallet covers the whole position and NaN when flat', () => {
    expect(
      liquidationPrice({ qty: 1, entryPrice: 100, walletBalance: 1_000, brackets: BTCUSDT_BRACKETS }),
    ).toBe(0);
    expect(
      liquidationPrice({ qty: 0, entryPrice: 100, walletBalance: 1_000, brackets: BTCUSDT_BRACKETS }),
    ).toBeNaN();
  });
});

describe('funding', () => {
  it('settles at 00:00, 08:00 and 16:00 UTC', () => {
    expect(nextFundingTime(Date.UTC(2025, 0, 1, 0, 0))).toBe(Date.UTC(2025, 0, 1, 0, 0));
    expect(nextFundingTime(Date.UTC(2025, 0, 1, 0, 1))).toBe(Date.UTC(2025, 0, 1, 8, 0));
    expect(nextFundingTime(Date.UTC(2025, 0, 1, 16, 30))).toBe(Date.UTC(2025, 0, 2, 0, 0));
    expect(nextFundingTime(Date.UTC(2025, 0, 1, 1, 0), 4)).toBe(Date.UTC(2025, 0, 1, 4, 0));
  });

  it('makes longs pay when the rate is positive', () => {
    expect(fundingFee(2, 30_000, 0.0001)).toBeCloseTo(6, 12);
    expect(fundingFee(-2, 30_000, 0.0001)).toBeCloseTo(-6, 12);
  });
});
