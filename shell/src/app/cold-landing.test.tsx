import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ColdLanding, type LeaveLanding } from './cold-landing';
import { useLandingNavigation } from './routes/landing-navigation';

/** Stands for the landing page: shows where the visitor was going, leaves by a link or by signing in */
function Page() {
  const { from, replaceWith, Link } = useLandingNavigation();
  return (
    <>
      <p>from: {from ? `${from.pathname}${from.search}${from.hash}` : 'nowhere'}</p>
      <Link to="/onboarding">How getting started works</Link>
      <button type="button" onClick={() => replaceWith('/dashboard')}>
        Sign in
      </button>
    </>
  );
}

function show() {
  const leave = vi.fn<LeaveLanding>();
  render(<ColdLanding Page={Page} leave={leave} />);
  return leave;
}

describe('the landing on a cold visit to / (no router)', () => {
  afterEach(() => {
    cleanup();
    window.history.replaceState(null, '', '/');
  });

  it('leaves for the page after sign-in in place of the landing, and by a link as a new history entry', () => {
    const leave = show();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(leave).toHaveBeenLastCalledWith('/dashboard', 'replace');
    const link = screen.getByRole('link', { name: 'How getting started works' });
    expect(link.getAttribute('href')).toBe('/onboarding');
    fireEvent.click(link);
    expect(leave).toHaveBeenLastCalledWith('/onboarding', 'push');
  });

  it('leaves a modified click to the browser (a new tab or window), as the router does', () => {
    const leave = show();
    const link = screen.getByRole('link', { name: 'How getting started works' });
    for (const modifier of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { button: 1 }]) {
      fireEvent.click(link, modifier);
    }
    expect(leave).not.toHaveBeenCalled();
  });

  it('reads where a visitor sent here was going from the history entry, where the router keeps it', () => {
    window.history.replaceState(
      { usr: { from: { pathname: '/bots', search: '?tab=live', hash: '' } }, key: 'k', idx: 0 },
      '',
      '/',
    );
    show();
    expect(screen.getByText('from: /bots?tab=live')).toBeTruthy();
  });

  it('hands over to the router when the back or forward button leads to another page', () => {
    const leave = show();
    window.history.pushState(null, '', '/dashboard?x=1');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(leave).toHaveBeenCalledWith('/dashboard?x=1', 'none');
  });
});
