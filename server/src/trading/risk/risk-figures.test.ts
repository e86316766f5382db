import { describe, expect, it } from 'vitest';
import { historicalVar, isReducing, VAR_MIN_OBSERVATIONS } from './risk-figures';

const DAY = 86_400_000;
/** Daily closes from a list of daily returns, starting at 100 */
const series = (returns: number[]) => {
  const closes = new Map<number, number>([[0, 100]]);
  let c = 100;
  returns.forEach((r, i) => {
    c *= 1 + r;
    closes.set((i + 1) * DAY, c);
  });
  return closes;
};

describe('historical VaR', () => {
  it('is the loss at the 5th percentile of the daily scenario PnLs', () => {
    // 40 days: returns −10 %, −9 % … +29 %; 5th percentile index ⌊0.05 × 40⌋ = 2 → the third worst, −8 %
    const returns = Array.from({ length: 40 }, (_, i) => (i - 10) / 100);
    const v = historicalVar(
      [{ symbol: 'SOLUSDT', signedNotional: 1000 }],
      new Map([['SOLUSDT', series(returns)]]),
    );
    expect(v.observations).toBe(40);
    expect(v.value).toBeCloseTo(80, 9);
    // A short position loses on the up days: the third best day, +27 %
    const short = historicalVar(
      [{ symbol: 'SOLUSDT', signedNotional: -1000 }],
      new Map([['SOLUSDT', series(returns)]]),
    );
    expect(short.value).toBeCloseTo(270, 9);
  });

  it('sums the positions per day, so a hedge offsets, and says nothing without enough days', () => {
    const returns = Array.from({ length: 30 }, (_, i) => (i % 2 ? 0.05 : -0.05));
    const closes = new Map([
      ['A', series(returns)],
      ['B', series(returns)],
    ]);
    const hedged = historicalVar(
      [
        { symbol: 'A', signedNotional: 500 },
        { symbol: 'B', signedNotional: -500 },
      ],
      closes,
    );
    expect(hedged.value).toBe(0);
    const short = historicalVar(
      [{ symbol: 'A', signedNotional: 100 }],
      new Map([['A', series(returns.slice(0, VAR_MIN_OBSERVATIONS - 1))]]),
    );
    expect(short).toMatchObject({ value: null, observations: VAR_MIN_OBSERVATIONS - 1 });
    expect(historicalVar([], new Map()).value).toBeNull();
  });
});

describe('orders that only reduce', () => {
  const long = [{ symbol: 'SOLUSDT', positionSide: 'BOTH' as const, amount: '5' }];
  it('reduce-only, close-position and hedge closes pass without reading positions', () => {
    expect(isReducing({ symbol: 'SOLUSDT', side: 'BUY', reduceOnly: true }, undefined)).toBe(true);
    expect(isReducing({ symbol: 'SOLUSDT', side: 'SELL', closePosition: true }, undefined)).toBe(true);
    expect(isReducing({ symbol: 'SOLUSDT', side: 'SELL', positionSide: 'LONG' }, undefined)).toBe(true);
    expect(isReducing({ symbol: 'SOLUSDT', side: 'BUY', positionSide: 'LONG' }, undefined)).toBe(false);
  });
  it('a one-way order against the position, no larger than it', () => {
    expect(isReducing({ symbol: 'SOLUSDT', side: 'SELL', quantity: '5' }, long)).toBe(true);
    expect(isReducing({ symbol: 'SOLUSDT', side: 'SELL', quantity: '5.1' }, long)).toBe(false);
    expect(isReducing({ symbol: 'SOLUSDT', side: 'BUY', quantity: '1' }, long)).toBe(false);
    expect(isReducing({ symbol: 'BTCUSDT', side: 'SELL', quantity: '1' }, long)).toBe(false);
  });
});
