import type { BotFill, BotOrder } from '@kestrel/contracts/bots';
import { describe, expect, it } from 'vitest';
import { fillMarks, orderLines } from './story-data';

const fill = (time: number, side: BotFill['side']): BotFill => ({
  time,
  side,
  price: 100,
  quantity: 1,
  fee: 0,
  realizedPnl: 0,
  positionAfter: 0,
});

describe("a bot's chart marks", () => {
  it('puts each fill on the candle that holds it, one mark per candle and side, and drops fills before the chart', () => {
    const candles = [60, 120, 180];
    const marks = fillMarks(
      [
        fill(30_000, 'BUY'),
        fill(61_000, 'BUY'),
        fill(119_000, 'BUY'),
        fill(130_000, 'SELL'),
        fill(500_000, 'SELL'),
      ],
      candles,
    );
    expect(marks).toEqual([
      { time: 60, side: 'BUY' },
      { time: 120, side: 'SELL' },
      { time: 180, side: 'SELL' },
    ]);
  });

  it('draws a limit at its price and a stop at its trigger; a market order has no line', () => {
    const order = (o: Partial<BotOrder>): BotOrder => ({
      clientOrderId: 'k',
      side: 'BUY',
      type: 'LIMIT',
      price: null,
      quantity: '1',
      status: 'NEW',
      reduceOnly: false,
      time: 0,
      ...o,
    });
    expect(
      orderLines([
        order({ price: '49000' }),
        order({ side: 'SELL', type: 'STOP_MARKET', triggerPrice: '48000' }),
        order({ type: 'MARKET' }),
      ]),
    ).toEqual([
      { price: 49_000, side: 'BUY' },
      { price: 48_000, side: 'SELL' },
    ]);
  });
});
