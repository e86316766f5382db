import { describe, expect, it } from 'vitest';
import { KNOWN_SYMBOLS, type SymbolSpec } from '../common/symbols';
import { aggregate } from './klines';
import { parsePriceCommand, SteeredFeed } from './price-control';
import { GeneratedFeed, MINUTE_MS } from './price-feed';

const btc = KNOWN_SYMBOLS.find((s) => s.symbol === 'BTCUSDT') as SymbolSpec;
const DAY = 86_400_000;
// A minute boundary, so the minute before it has closed when a command arrives
const AT = Date.UTC(2026, 0, 15, 9, 31);

function feeds() {
  const walk = new GeneratedFeed(btc, 5, AT - DAY);
  return { walk, steered: new SteeredFeed(new GeneratedFeed(btc, 5, AT - DAY)) };
}

describe('a steered feed', () => {
  it('is the walk itself until a command, and never rewrites a minute that closed before it', () => {
    const { walk, steered } = feeds();
    const before = AT - MINUTE_MS;
    expect(steered.bar(before, AT)).toEqual(walk.bar(before, AT));
    const hourBefore = aggregate(steered, '1h', AT - 31 * MINUTE_MS, AT);
    steered.steer(parsePriceCommand(btc, { price: '50000.0' }), AT);
    expect(steered.priceAt(AT)).toBe(50000);
    // The closed minute keeps its close even though the command came at the next minute's first second
    expect(steered.bar(before)).toEqual(walk.bar(before));
    expect(steered.bar(AT, AT)).toMatchObject({ open: 50000, high: 50000, low: 50000, close: 50000 });
    const hourAfter = aggregate(steered, '1h', AT - 31 * MINUTE_MS, AT);
    expect(hourAfter).toMatchObject({ open: hourBefore?.open, low: 50000, close: 50000 });
  });

  it('walks a path point by point, once a second, and holds its last point', () => {
    const { steered } = feeds();
    const path = Array.from({ length: 600 }, (_, i) => ({
      price: (60000 + i).toFixed(1),
      afterMs: (i + 1) * 1000,
    }));
    steered.steer(parsePriceCommand(btc, { path }), AT + 250);
    expect(steered.mode(AT + 250)).toEqual({ mode: 'path', target: 60599, until: AT + 600_000 });
    expect(steered.priceAt(AT + 1000)).toBe(60000);
    expect(steered.priceAt(AT + 300_999)).toBe(60299);
    expect(steered.priceAt(AT + 10 * DAY)).toBe(60599);
    expect(steered.mode(AT + 600_000)).toEqual({ mode: 'held', target: 60599 });
    // A minute inside the path: its bar holds exactly the prices of its seconds
    expect(steered.bar(AT + 2 * MINUTE_MS)).toMatchObject({
      open: 60119,
      high: 60179,
      low: 60119,
      close: 60179,
    });
  });

  it('goes back to the walk scaled to the price it was released at', () => {
    const { walk, steered } = feeds();
    const target = Math.round(walk.priceAt(AT) * 0.8 * 10) / 10;
    steered.steer(parsePriceCommand(btc, { price: target.toFixed(1) }), AT);
    steered.release(AT + 5000);
    expect(steered.mode(AT + 5000)).toEqual({ mode: 'walk' });
    expect(steered.priceAt(AT + 5000)).toBe(target);
    const later = AT + 30 * MINUTE_MS;
    const ratio = steered.priceAt(later) / walk.priceAt(later);
    expect(ratio).toBeCloseTo(target / walk.priceAt(AT + 5000), 4);
    const bar = steered.bar(later);
    const own = walk.bar(later);
    expect(bar?.high).toBeCloseTo((own?.high ?? 0) * ratio, 0);
    expect(bar?.volume).toBe(own?.volume);
  });
});
