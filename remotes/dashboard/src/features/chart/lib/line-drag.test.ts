import { describe, expect, it } from 'vitest';
import { grabbedLine, grabTolerance, roundToTick, shownMove } from './line-drag';

describe('roundToTick', () => {
  it('puts the pointer’s price on the nearest tick, written with the tick’s decimals', () => {
    expect(roundToTick(59_500.044, '0.01')).toBe('59500.04');
    expect(roundToTick(59_500.06, '0.1')).toBe('59500.1');
    expect(roundToTick(0.123456, '0.0001')).toBe('0.1235');
  });

  it('never goes below one tick, and answers nothing off the scale or without a tick', () => {
    expect(roundToTick(0.00001, '0.1')).toBe('0.1');
    expect(roundToTick(null, '0.1')).toBeUndefined();
    expect(roundToTick(Number.NaN, '0.1')).toBeUndefined();
    expect(roundToTick(100, '0')).toBeUndefined();
  });
});

describe('grabbedLine', () => {
  const lines = [{ y: 100 }, { y: 110 }, { y: null }, { y: 300 }];

  it('takes the nearest line within reach', () => {
    expect(grabbedLine(lines, 104, 6)).toBe(0);
    expect(grabbedLine(lines, 107, 6)).toBe(1);
    expect(grabbedLine(lines, 296, 6)).toBe(3);
  });

  it('takes none beyond reach, nor a line off the chart', () => {
    expect(grabbedLine(lines, 200, 6)).toBeUndefined();
    expect(grabbedLine([{ y: null }], 0, 14)).toBeUndefined();
  });

  it('gives a finger more reach than a mouse', () => {
    expect(grabTolerance('touch')).toBeGreaterThan(grabTolerance('mouse'));
    expect(grabbedLine(lines, 290, grabTolerance('mouse'))).toBeUndefined();
    expect(grabbedLine(lines, 290, grabTolerance('touch'))).toBe(3);
  });
});

describe('shownMove', () => {
  it('holds a dropped line while it is confirmed, and a sent one until the orders are fetched after it', () => {
    const confirming = { orderId: '7', price: 2184.92 };
    expect(shownMove(confirming, 5_000)).toBe(confirming);
    const sent = { ...confirming, until: 10_000 };
    // The open orders shown are from before the move was on the exchange: the old order would draw at its old price
    expect(shownMove(sent, 9_000)).toBe(sent);
    expect(shownMove(sent, 10_000)).toBe(sent);
    // Fetched after: the exchange's own order is drawn
    expect(shownMove(sent, 10_001)).toBeNull();
    expect(shownMove(null, 0)).toBeNull();
  });
});
