import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Button } from './button';
import { EmptyState, PageFrame } from './page-frame';

describe('PageFrame', () => {
  it('is a region named by its one h1, which code can focus but Tab skips', () => {
    render(
      <PageFrame title="Portfolio" description="Balances and open positions" data-remote="dashboard">
        <p>content</p>
      </PageFrame>,
    );
    const region = screen.getByRole('region', { name: 'Portfolio' });
    expect(region.getAttribute('data-remote')).toBe('dashboard');
    const heading = screen.getByRole('heading', { level: 1, name: 'Portfolio' });
    expect(heading.id).toBe('page-title');
    expect(heading.tabIndex).toBe(-1);
    expect(screen.getByText('Balances and open positions')).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });

  it('puts actions beside the title', () => {
    render(<PageFrame title="Bot hub" actions={<Button>Create bot</Button>} />);
    expect(screen.getByRole('region', { name: 'Bot hub' }).querySelector('button')?.textContent).toBe(
      'Create bot',
    );
  });
});

describe('EmptyState', () => {
  it('says what is missing as a heading under the page title, and what will appear', () => {
    render(
      <PageFrame title="Active bots">
        <EmptyState title="No bots running" description="Bots you start appear here with their PnL." />
      </PageFrame>,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'No bots running' })).toBeTruthy();
    expect(screen.getByText('Bots you start appear here with their PnL.')).toBeTruthy();
  });
});
