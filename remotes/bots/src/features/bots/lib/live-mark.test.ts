import type { BotStatus } from '@kestrel/contracts/bots';
import { describe, expect, it } from 'vitest';
import { atLiveMark } from './live-mark';

const read = {
  realizedPnl: 1.5,
  unrealizedPnl: 0.006 * (49_500 - 49_700),
  todayPnl: 1.5 + 0.006 * (49_500 - 49_700),
  positionQty: 0.006,
  entryPrice: 49_700,
  markPrice: 49_500,
} as BotStatus;

describe('a running bot’s figures at the pushed mark price', () => {
  it('moves the mark, the unrealized and today’s PnL with the price; position and realized stay as read', () => {
    const live = atLiveMark(read, 50_100);
    expect(live.markPrice).toBe(50_100);
    expect(live.unrealizedPnl).toBeCloseTo(0.006 * 400, 9);
    expect(live.todayPnl).toBeCloseTo(1.5 + 0.006 * 400, 9);
    expect(live.realizedPnl).toBe(1.5);
    expect(live.positionQty).toBe(0.006);
  });

  it('a short gains as the price falls', () => {
    const short = atLiveMark({ ...read, positionQty: -0.01, unrealizedPnl: 0, todayPnl: 0 }, 49_600);
    expect(short.unrealizedPnl).toBeCloseTo(-0.01 * (49_600 - 49_700), 9);
  });

  it('keeps the figures as read without a push, and only moves the mark of a flat bot', () => {
    expect(atLiveMark(read, undefined)).toBe(read);
    const flat = { ...read, positionQty: 0, entryPrice: null, unrealizedPnl: 0, todayPnl: 1.5 };
    expect(atLiveMark(flat, 50_000)).toEqual({ ...flat, markPrice: 50_000 });
  });
});
