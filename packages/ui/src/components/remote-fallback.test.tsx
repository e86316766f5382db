import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RemoteFallback, RemoteLoading } from './remote-fallback';

describe('a part of the page that is loading or could not load', () => {
  it('while loading: a status that says what is on its way, with the slot attributes passed through', () => {
    render(<RemoteLoading title="Dashboard" data-remote-slot="dashboard" data-state="loading" />);
    expect(screen.getByRole('status').textContent).toContain('Loading Dashboard...');
    const slot = document.querySelector('[data-remote-slot="dashboard"]');
    expect(slot?.getAttribute('data-state')).toBe('loading');
    // Its padding is one of ui's own classes, which ui's stylesheet compiles
    expect(slot?.className).toContain('ui:p-8');
  });

  it('when it failed: an alert with what and why, and Retry when there is a way to try again', () => {
    const onRetry = vi.fn();
    render(
      <RemoteFallback
        title="Dashboard is unavailable"
        message="Its server did not answer."
        onRetry={onRetry}
      />,
    );
    expect(screen.getByRole('alert').textContent).toContain('Its server did not answer.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
