import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useNow } from '../../../lib/use-now';
import { formatUptime, uptimeNow } from './bot-words';

afterEach(() => {
  vi.useRealTimers();
});

describe('a running bot’s uptime between two reads of its status', () => {
  it('ticks on from the server’s figure each second while the bot runs, and stands still otherwise', () => {
    const read = Date.UTC(2026, 11, 2, 12);
    vi.useFakeTimers({ now: read, toFake: ['Date', 'setInterval', 'clearInterval'] });
    const { result, rerender } = renderHook(({ running }) => useNow(running), {
      initialProps: { running: true },
    });
    const shown = (running: boolean) => formatUptime(uptimeNow(59_000, read, result.current, running));
    expect(shown(true)).toBe('59 s');
    act(() => vi.advanceTimersByTime(3_000));
    expect(shown(true)).toBe('1 min 2 s');
    // Stopping: the figure the server gives (its last) stands, and the clock stops ticking
    rerender({ running: false });
    const stopped = result.current;
    act(() => vi.advanceTimersByTime(5_000));
    expect(result.current).toBe(stopped);
    expect(shown(false)).toBe('59 s');
    expect(formatUptime(uptimeNow(null, read, result.current, true))).toBe('—');
  });
});
