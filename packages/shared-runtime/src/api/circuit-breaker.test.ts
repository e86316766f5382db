import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type CircuitState, createCircuitBreaker } from './circuit-breaker';

describe('circuit breaker (spec §4, §9: 5 failures to open, 30 s recovery)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts CLOSED and opens on the fifth consecutive failure, not the fourth', () => {
    const breaker = createCircuitBreaker();
    expect(breaker.state).toBe('CLOSED');
    for (let i = 0; i < 4; i++) breaker.recordFailure();
    expect(breaker.state).toBe('CLOSED');
    expect(breaker.canRequest()).toBe(true);
    breaker.recordFailure();
    expect(breaker.state).toBe('OPEN');
    expect(breaker.canRequest()).toBe(false);
  });

  it('counts only consecutive failures: a success in between resets the count', () => {
    const breaker = createCircuitBreaker();
    for (let i = 0; i < 4; i++) breaker.recordFailure();
    breaker.recordSuccess();
    for (let i = 0; i < 4; i++) breaker.recordFailure();
    expect(breaker.state).toBe('CLOSED');
  });

  it('goes HALF_OPEN exactly 30 s after opening, then CLOSED on success', () => {
    const breaker = createCircuitBreaker();
    const seen: CircuitState[] = [];
    breaker.state$.subscribe((s) => seen.push(s));
    for (let i = 0; i < 5; i++) breaker.recordFailure();
    vi.advanceTimersByTime(29_999);
    expect(breaker.state).toBe('OPEN');
    vi.advanceTimersByTime(1);
    expect(breaker.state).toBe('HALF_OPEN');
    expect(breaker.canRequest()).toBe(true);
    breaker.recordSuccess();
    expect(seen).toEqual(['CLOSED', 'OPEN', 'HALF_OPEN', 'CLOSED']);
  });

  it('reopens at once when the HALF_OPEN trial call fails, and waits another 30 s', () => {
    const breaker = createCircuitBreaker();
    for (let i = 0; i < 5; i++) breaker.recordFailure();
    vi.advanceTimersByTime(30_000);
    breaker.recordFailure();
    expect(breaker.state).toBe('OPEN');
    vi.advanceTimersByTime(29_999);
    expect(breaker.state).toBe('OPEN');
    vi.advanceTimersByTime(1);
    expect(breaker.state).toBe('HALF_OPEN');
  });
});
