import type { DashboardOverview } from '@kestrel/contracts';
import { Button } from '@kestrel/ui';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AccountCards } from './account-cards';

function overview(overrides: Partial<DashboardOverview> = {}): DashboardOverview {
  return {
    walletBalance: '10000.00000000',
    marginBalance: '9987.65000000',
    availableMargin: '9411.84000000',
    unrealizedPnl: '-12.35000000',
    initialMargin: '575.81000000',
    maintenanceMargin: '23.03000000',
    marginRatio: '0.0023',
    today: {
      from: Date.UTC(2026, 0, 5),
      to: Date.UTC(2026, 0, 5, 12),
      realizedPnl: '4.20000000',
      commission: '-3.53000000',
      fundingFee: '0',
      net: '0.67000000',
    },
    openPositions: 1,
    openOrders: 2,
    activeBots: 0,
    asOf: Date.UTC(2026, 0, 5, 12),
    ...overrides,
  };
}

const card = (name: string) => screen.getByRole('article', { name });

describe('the account cards', () => {
  it('show the balance, PnL in its colour, available margin and the margin ratio', () => {
    render(<AccountCards state="ready" overview={overview()} />);
    expect(within(card('Wallet balance')).getByText('10,000.00')).toBeTruthy();
    expect(within(card('Wallet balance')).getByText('9,987.65')).toBeTruthy();
    const loss = within(card('Unrealized PnL')).getByText('-12.35');
    expect(loss.className).toContain('text-destructive');
    const today = within(card("Today's PnL")).getByText('+0.67');
    expect(today.className).toContain('text-success');
    expect(within(card("Today's PnL")).getByText('-3.53')).toBeTruthy();
    expect(within(card('Available margin')).getByText('9,411.84')).toBeTruthy();
    expect(within(card('Available margin')).getByText('0.23%')).toBeTruthy();
    expect(within(card('Unrealized PnL')).getByText('2')).toBeTruthy();
  });

  it('warn when the margin ratio nears liquidation', () => {
    render(<AccountCards state="ready" overview={overview({ marginRatio: '0.8125' })} />);
    expect(within(card('Available margin')).getByText('81.25%').className).toContain('text-destructive');
  });

  it('without an exchange, show no figure and offer to connect one', () => {
    const { container } = render(
      <AccountCards state="no-exchange" connectAction={<Button>Connect exchange</Button>} />,
    );
    expect(screen.getByRole('heading', { name: 'No exchange connected' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Connect exchange' })).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
    expect(container.textContent).not.toMatch(/\d/);
  });

  it('while loading, say so with no figure', () => {
    const { container } = render(<AccountCards state="loading" />);
    expect(screen.getByRole('status').textContent).toContain('Loading your account');
    expect(container.textContent).not.toMatch(/\d/);
  });

  it('on a failure, say what failed and retry on request', async () => {
    const onRetry = vi.fn();
    render(<AccountCards state="error" message="The exchange did not answer" onRetry={onRetry} />);
    expect(screen.getByRole('alert').textContent).toContain('The exchange did not answer');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
