import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary, NavigationErrorBoundary } from './error-boundaries';

function Broken(): never {
  throw new Error('boom');
}

describe('error screens (spec §2)', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('shows the app error screen with a Reload Page button that reloads', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    render(
      <AppErrorBoundary>
        <Broken />
      </AppErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByText("We're sorry, but something unexpected happened.")).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reload Page' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('contains a navigation failure with its own message, leaving the page beside it', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <>
        <NavigationErrorBoundary>
          <Broken />
        </NavigationErrorBoundary>
        <p>Page content</p>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toBe('Navigation ErrorPlease refresh the page.');
    expect(screen.getByText('Page content')).toBeTruthy();
  });
});
