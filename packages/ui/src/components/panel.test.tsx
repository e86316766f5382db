import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Panel, PanelFailure, PanelLoading, QueryState } from './panel';

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

  it('shows a query loading, then its data, and its failure only while there is no data', () => {
    const refetch = vi.fn();
    const query = { isPending: true, data: undefined as string | undefined, error: null, refetch };
    const view = (q: typeof query | (Omit<typeof query, 'error'> & { error: Error })) => (
      <QueryState query={q} what="Your profile" loading="Loading your profile…">
        {(name) => <p>Hello {name}</p>}
      </QueryState>
    );
    const { rerender } = render(view(query));
    expect(screen.getByRole('status').textContent).toContain('Loading your profile…');
    rerender(view({ ...query, isPending: false, error: new Error('HTTP 503') }));
    expect(screen.getByRole('alert').textContent).toContain('Your profile could not be loaded: HTTP 503');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledOnce();
    rerender(view({ ...query, isPending: false, data: 'Ada', error: new Error('HTTP 503') }));
    expect(screen.getByText('Hello Ada')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
