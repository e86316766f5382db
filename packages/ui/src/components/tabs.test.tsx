import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs';

function Positions() {
  return (
    <Tabs defaultValue="open">
      <TabsList aria-label="Positions">
        <TabsTrigger value="open">Open</TabsTrigger>
        <TabsTrigger value="orders">Orders</TabsTrigger>
        <TabsTrigger value="history">History</TabsTrigger>
      </TabsList>
      <TabsContent value="open">2 open positions</TabsContent>
      <TabsContent value="orders">No open orders</TabsContent>
      <TabsContent value="history">Last 100 trades</TabsContent>
    </Tabs>
  );
}

describe('Tabs', () => {
  it('shows the selected tab its panel, named by the tab', () => {
    render(<Positions />);
    expect(screen.getByRole('tablist', { name: 'Positions' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Open' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Open' }).textContent).toBe('2 open positions');
    expect(screen.queryByText('No open orders')).toBeNull();
  });

  it('moves between tabs with the arrow keys, Home and End, and the panel follows', async () => {
    const user = userEvent.setup();
    render(<Positions />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Open' }));
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Orders' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('No open orders');
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'History' }));
    expect(screen.getByRole('tabpanel').textContent).toBe('Last 100 trades');
    // Wraps around from the last tab
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tabpanel').textContent).toBe('2 open positions');
    await user.keyboard('{ArrowLeft}{Home}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Open' }));
  });

  it('takes one Tab stop: the next Tab leaves the tab list for the panel', async () => {
    const user = userEvent.setup();
    render(<Positions />);
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tabpanel'));
  });
});
