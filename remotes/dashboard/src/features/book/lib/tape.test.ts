import { describe, expect, it } from 'vitest';
import { formatTradeTime, latestTrades, type TapeTrade, takerSide } from './tape';

const AT = Date.UTC(2026, 0, 5, 14, 5, 9, 250);
const trade = (id: number, time = AT): TapeTrade => ({
  id,
  price: '64118.1',
  quantity: '0.010',
  buyerMaker: false,
  time,
});

describe('latestTrades', () => {
  it('puts the newest first and keeps `rows` of them, whichever order they came in', () => {
    const oldestFirst = [trade(1), trade(2), trade(3, AT + 1), trade(4, AT + 1)];
    expect(latestTrades(oldestFirst, 3).map((t) => t.id)).toEqual([4, 3, 2]);
    expect(latestTrades([...oldestFirst].reverse(), 10).map((t) => t.id)).toEqual([4, 3, 2, 1]);
    expect(latestTrades(oldestFirst, 0)).toEqual([]);
  });

  it('leaves the list it was given alone', () => {
    const trades = [trade(1), trade(2)];
    latestTrades(trades, 2);
    expect(trades.map((t) => t.id)).toEqual([1, 2]);
  });
});

describe('formatTradeTime', () => {
  it('reads hours, minutes and seconds in UTC', () => {
    expect(formatTradeTime(AT)).toBe('14:05:09');
    expect(formatTradeTime(Date.UTC(2026, 0, 5))).toBe('00:00:00');
  });
});

describe('takerSide', () => {
  it('is a sell when the buyer was the maker', () => {
    expect(takerSide({ buyerMaker: true })).toBe('Sell');
    expect(takerSide({ buyerMaker: false })).toBe('Buy');
  });
});
