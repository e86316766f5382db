import { MemoryRouter, useNavigate } from '@kestrel/shared-runtime/router';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteProgressBar } from './route-progress-bar';

let navigate: ReturnType<typeof useNavigate>;
function CaptureNavigate() {
  navigate = useNavigate();
  return null;
}

/** Mounts the bar and lets its first run (the initial page) finish */
function mountAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <RouteProgressBar />
      <CaptureNavigate />
    </MemoryRouter>,
  );
  act(() => vi.advanceTimersByTime(5000));
  expect(screen.queryByRole('progressbar')).toBeNull();
}

describe('RouteProgressBar', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('runs when the route changes', () => {
    mountAt('/backtesting');
    act(() => navigate('/dashboard'));
    expect(screen.getByRole('progressbar')).toBeTruthy();
  });

  it('stays hidden when a page only changes its query string', () => {
    mountAt('/backtesting');
    act(() => navigate('/backtesting?run=42'));
    act(() => vi.advanceTimersByTime(150));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
