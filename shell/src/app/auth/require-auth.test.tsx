import { MemoryRouter, Route, Routes, useLocation } from '@kestrel/shared-runtime/router';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProtectedGate, preloadSignedInArea, type ReturnTo } from './require-auth';

function Landing() {
  const from = (useLocation().state as ReturnTo | null)?.from;
  return <p>Landing, from {from ? `${from.pathname}${from.search}` : 'nowhere'}</p>;
}

const gate = (status: 'loading' | 'signed-in' | 'signed-out', exchangesLoading = false) =>
  render(
    <MemoryRouter initialEntries={['/risk?window=7d']}>
      <Routes>
        <Route path="/" element={<Landing />} />
        <Route
          path="/risk"
          element={
            <ProtectedGate status={status} exchangesLoading={exchangesLoading}>
              <p>Risk page</p>
            </ProtectedGate>
          }
        />
      </Routes>
    </MemoryRouter>,
  );

describe('protected route behaviour (spec §2)', () => {
  afterEach(cleanup);

  it('shows a full-screen Loading... while the session loads', () => {
    gate('loading');
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    expect(screen.queryByText('Risk page')).toBeNull();
  });

  it('sends a signed-out visitor to / carrying where they were going', () => {
    gate('signed-out');
    expect(screen.getByText('Landing, from /risk?window=7d')).toBeTruthy();
  });

  it('shows Initializing exchanges... while the exchange state loads, then the page', () => {
    gate('signed-in', true);
    expect(screen.getByRole('status').textContent).toBe('Initializing exchanges...');
    cleanup();
    gate('signed-in', false);
    expect(screen.getByText('Risk page')).toBeTruthy();
  });
});

describe('preloading after sign-in (spec §2)', () => {
  it('loads the layout (sidebar, top bar) and the dashboard page ahead of time, and tolerates a failure', async () => {
    const load = vi.fn(async () => {
      throw new Error('dashboard remote down');
    });
    const layout = vi.fn(async () => ({}));
    await expect(preloadSignedInArea(load as never, layout)).resolves.toBeUndefined();
    expect(layout).toHaveBeenCalledOnce();
    expect(load).toHaveBeenCalledWith('dashboard', './DashboardPage');
  });
});
