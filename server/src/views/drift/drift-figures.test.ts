import { describe, expect, it } from 'vitest';
import { type BotFill, compareTrades, matchTrades, tradesFromFills } from './drift-figures';

const M = 60_000;
const fill = (
  time: number,
  side: 'buy' | 'sell',
  quantity: number,
  price: number,
  positionAfter: number,
  extra: Partial<BotFill> = {},
): BotFill => ({
  time,
  side,
  quantity,
  price,
  fee: 0,
  realizedPnl: 0,
  positionAfter,
  ...extra,
});

describe('round trips from a bot’s fills', () => {
  it('adds to a position at an average entry, closes it in parts at an average exit, and splits a flip', () => {
    const trades = tradesFromFills([
      fill(0, 'buy', 1, 100, 1, { fee: 0.1 }),
      fill(M, 'buy', 1, 110, 2, { fee: 0.1 }),
      fill(2 * M, 'sell', 1, 120, 1, { fee: 0.1, realizedPnl: 15 }),
      // Sells 3: closes the last 1 (at 130) and opens a short of 2; its fee of 0.3 is split 0.1 / 0.2
      fill(3 * M, 'sell', 3, 130, -2, { fee: 0.3, realizedPnl: 25 }),
      fill(4 * M, 'buy', 2, 125, 0, { fee: 0.2, realizedPnl: 10 }),
      // Still open at the end
      fill(5 * M, 'buy', 1, 126, 1),
    ]);
    expect(trades).toHaveLength(3);
    expect(trades[0]).toEqual({
      side: 'long',
      entryTime: 0,
      exitTime: 3 * M,
      entryPrice: 105,
      exitPrice: 125,
      quantity: 2,
      realizedPnl: 40,
      fees: expect.closeTo(0.4, 12),
      funding: null,
    });
    expect(trades[1]).toMatchObject({
      side: 'short',
      entryTime: 3 * M,
      exitTime: 4 * M,
      entryPrice: 130,
      exitPrice: 125,
      quantity: 2,
      realizedPnl: 10,
      fees: expect.closeTo(0.4, 12),
    });
    expect(trades[2]).toMatchObject({ side: 'long', entryTime: 5 * M, exitTime: null, exitPrice: null });
  });
});

describe('matching bot and backtest trades', () => {
  const trade = (side: 'long' | 'short', entryTime: number, entryPrice: number, exitPrice: number) => ({
    side,
    entryTime,
    exitTime: entryTime + 10 * M,
    entryPrice,
    exitPrice,
    quantity: 1,
    realizedPnl: side === 'long' ? exitPrice - entryPrice : entryPrice - exitPrice,
    fees: 0.1,
    funding: null,
  });

  it('pairs the same side closest in time within the window, and says what is left on each side', () => {
    const bot = [
      trade('long', 0, 101, 110),
      trade('short', 20 * M, 120, 118),
      trade('long', 60 * M, 100, 90),
    ];
    const backtest = [
      trade('long', M, 100, 111),
      trade('long', 21 * M, 120, 118),
      trade('short', 40 * M, 100, 99),
    ];
    const { matched, botOnly, backtestOnly } = matchTrades(bot, backtest, 3 * M);
    expect(matched).toHaveLength(1);
    expect(matched[0]).toMatchObject({
      entryTimeDiffMs: -M,
      exitTimeDiffMs: -M,
      entryPriceDiff: 1,
      exitPriceDiff: -1,
      // A long paying 1 % more to enter, and receiving 0.9 % less to exit: both against the trader
      entrySlippageBps: expect.closeTo(100, 9),
      exitSlippageBps: expect.closeTo(90.09009, 4),
      realizedPnlDiff: -2,
      feesDiff: 0,
    });
    // The short at 20 min has only a long near it; the long at 60 min has nothing within 3 minutes
    expect(botOnly.map((t) => t.entryTime)).toEqual([20 * M, 60 * M]);
    expect(backtestOnly.map((t) => t.entryTime)).toEqual([21 * M, 40 * M]);
  });

  it('a short’s slippage is against the trader the other way round; totals and means over the matches', () => {
    const bot = [trade('short', 0, 99, 101)];
    const backtest = [trade('short', 0, 100, 100)];
    const c = compareTrades(bot, backtest, 3 * M);
    expect(c.matched[0]?.entrySlippageBps).toBeCloseTo(100, 9);
    expect(c.matched[0]?.exitSlippageBps).toBeCloseTo(100, 9);
    expect(c.totals).toEqual({
      bot: { trades: 1, realizedPnl: -2, fees: 0.1, funding: null, net: -2.1 },
      backtest: { trades: 1, realizedPnl: 0, fees: 0.1, funding: null, net: -0.1 },
      meanEntrySlippageBps: expect.closeTo(100, 9),
      meanExitSlippageBps: expect.closeTo(100, 9),
      meanEntryDelayMs: 0,
    });
  });
});
