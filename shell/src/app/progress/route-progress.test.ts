import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRouteProgress, type RouteProgressState } from './route-progress';

describe('route progress bar (spec §2, §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const run = (random: () => number) => {
    const states: RouteProgressState[] = [];
    const progress = createRouteProgress((s) => states.push(s), random);
    progress.start();
    return { states, progress, last: () => states.at(-1) };
  };

  it('starts at 12 and rises by the smallest step, 3, every 150 ms', () => {
    const { last } = run(() => 0);
    expect(last()).toEqual({ visible: true, percent: 12 });
    vi.advanceTimersByTime(149);
    expect(last()?.percent).toBe(12);
    vi.advanceTimersByTime(1);
    expect(last()?.percent).toBe(15);
    vi.advanceTimersByTime(150);
    expect(last()?.percent).toBe(18);
  });

  it('rises by at most 13 per tick and never passes 80 before completing', () => {
    const { states } = run(() => 0.999_999);
    vi.advanceTimersByTime(150);
    expect(states.at(-1)?.percent).toBe(25);
    vi.advanceTimersByTime(1_049);
    const beforeFinish = states.map((s) => s.percent);
    expect(Math.max(...beforeFinish)).toBe(80);
  });

  it('completes at 1200 ms and hides 250 ms after that', () => {
    const { last } = run(() => 0.5);
    vi.advanceTimersByTime(1_199);
    expect(last()?.percent).toBeLessThan(100);
    vi.advanceTimersByTime(1);
    expect(last()).toEqual({ visible: true, percent: 100 });
    vi.advanceTimersByTime(249);
    expect(last()?.visible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(last()).toEqual({ visible: false, percent: 100 });
  });

  it('restarts from 12 on a new route change mid-way, without the old timers firing', () => {
    const { states, progress, last } = run(() => 0);
    vi.advanceTimersByTime(1_000);
    progress.start();
    expect(last()).toEqual({ visible: true, percent: 12 });
    vi.advanceTimersByTime(300);
    expect(last()?.percent).toBe(18);
    expect(states.filter((s) => s.percent === 100)).toHaveLength(0);
  });
});
