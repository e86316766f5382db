import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Panel, PanelFailure, PanelLoading } from './panel';

describe('Panel', () => {
  it('is a region named by its h2, with its description and content', () => {
    render(
      <Panel id="limits" title="Account limits" description="Checked before every order">
        <p>content</p>
      </Panel>,
    );
    const region = screen.getByRole('region', { name: 'Account limits' });
    expect(screen.getByRole('heading', { level: 2, name: 'Account limits' }).id).toBe('limits');
    expect(region.textContent).toContain('Checked before every order');
    expect(region.textContent).toContain('content');
  });

  it('says what it waits for while loading', () => {
    render(<PanelLoading label="Loading risk events" />);
    expect(screen.getByRole('status').textContent).toContain('Loading risk events');
  });

  it('says what failed and why, and retries on request', () => {
    const onRetry = vi.fn();
    render(<PanelFailure what="The risk events" message="HTTP 503: down" onRetry={onRetry} />);
    expect(screen.getByRole('alert').textContent).toContain(
      'The risk events could not be loaded: HTTP 503: down',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
