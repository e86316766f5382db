import { describe, expect, it } from 'vitest';
import { Throttle } from './throttle';

describe('Throttle (progress pushes)', () => {
  it('lets the first event through, then at most one per interval', () => {
    let now = 1_000;
    const throttle = new Throttle(250, () => now);
    expect(throttle.ready()).toBe(true);
    now += 249;
    expect(throttle.ready()).toBe(false);
    now += 1;
    expect(throttle.ready()).toBe(true);
    now += 100;
    expect(throttle.ready()).toBe(false);
    now += 150;
    expect(throttle.ready()).toBe(true);
  });
});
