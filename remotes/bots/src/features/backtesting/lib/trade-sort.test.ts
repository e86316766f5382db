import { BACKTEST_MAX_TRADES, type BacktestTrade } from '@kestrel/contracts/backtest';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TRADE_SORT, nextTradeSort, sortTrades } from './trade-sort';

function trade(id: number, entryTime: number, pnl: number): BacktestTrade {
  return {
    id,
    side: id % 3 ? 'long' : 'short',
    entryTime,
    entryPrice: 100,
    exitTime: entryTime + 1,
    exitPrice: 101,
    quantity: 1,
    pnl,
    grossPnl: pnl,
    fees: 0,
    funding: 0,
    exitReason: 'signal',
  };
}

describe('sortTrades', () => {
  it('leaves the cached array alone and returns a sorted copy', () => {
    const trades = [trade(1, 20, 5), trade(2, 10, -1)];
    const sorted = sortTrades(trades, { column: 'pnl', direction: 'ascending' });
    expect(sorted.map((t) => t.id)).toEqual([2, 1]);
    expect(trades.map((t) => t.id)).toEqual([1, 2]);
  });

  it('breaks ties on entry time then #, whichever the direction', () => {
    const trades = [trade(3, 30, 0), trade(1, 10, 0), trade(4, 10, 0), trade(2, 20, 9)];
    expect(sortTrades(trades, { column: 'pnl', direction: 'ascending' }).map((t) => t.id)).toEqual([
      1, 4, 3, 2,
    ]);
    expect(sortTrades(trades, { column: 'pnl', direction: 'descending' }).map((t) => t.id)).toEqual([
      2, 1, 4, 3,
    ]);
  });

  it(`orders the most trades a run keeps (${BACKTEST_MAX_TRADES}) correctly`, () => {
    // Net PnL scattered (a fixed permutation), entries in order
    const trades = Array.from({ length: BACKTEST_MAX_TRADES }, (_, i) =>
      trade(i + 1, i * 60_000, ((i * 7_919) % BACKTEST_MAX_TRADES) - 5_000),
    );
    const sorted = sortTrades(trades, { column: 'pnl', direction: 'descending' });
    expect(sorted).toHaveLength(BACKTEST_MAX_TRADES);
    for (let i = 1; i < sorted.length; i++) {
      expect((sorted[i - 1] as BacktestTrade).pnl).toBeGreaterThanOrEqual((sorted[i] as BacktestTrade).pnl);
    }
  });
});

describe('nextTradeSort', () => {
  it('flips the sorted column and starts another column ascending', () => {
    expect(DEFAULT_TRADE_SORT).toEqual({ column: 'entryTime', direction: 'ascending' });
    const flipped = nextTradeSort(DEFAULT_TRADE_SORT, 'entryTime');
    expect(flipped).toEqual({ column: 'entryTime', direction: 'descending' });
    expect(nextTradeSort(flipped, 'entryTime')).toEqual(DEFAULT_TRADE_SORT);
    expect(nextTradeSort(flipped, 'fees')).toEqual({ column: 'fees', direction: 'ascending' });
  });
});
