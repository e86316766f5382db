import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Badge, EnvironmentBadge } from './badge';
import { Button } from './button';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from './dialog';
import { Input } from './input';
import { Spinner } from './spinner';

describe('Button', () => {
  it('never submits a surrounding form unless asked to', () => {
    const onSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <Button>Plain</Button>
        <Button type="submit">Send</Button>
      </form>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Plain' }));
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it("gives each size one height and one text size, and keeps the caller's prefixed classes", () => {
    // `cn` does not merge conflicting utilities: two of one property would leave the stylesheet's order to decide
    render(
      <>
        <Button size="sm" className="db:mt-4">
          Small
        </Button>
        <Button>Default</Button>
      </>,
    );
    const small = screen.getByRole('button', { name: 'Small' }).className.split(' ');
    expect(small.filter((c) => /^ui:text-(xs|sm|base)$/.test(c))).toEqual(['ui:text-xs']);
    expect(small.filter((c) => /^ui:h-\d+$/.test(c))).toEqual(['ui:h-8']);
    expect(small).toContain('db:mt-4');
    const normal = screen.getByRole('button', { name: 'Default' }).className.split(' ');
    expect(normal.filter((c) => /^ui:text-(xs|sm|base)$/.test(c))).toEqual(['ui:text-sm']);
  });

  it('renders its child instead of a button with asChild', () => {
    render(
      <Button asChild>
        <a href="/dashboard">Go</a>
      </Button>,
    );
    expect(screen.getByRole('link', { name: 'Go' }).getAttribute('data-slot')).toBe('button');
  });
});

describe('Dialog', () => {
  it('opens with its title and description announced, and Escape closes it', () => {
    render(
      <Dialog>
        <DialogTrigger>Open</DialogTrigger>
        <DialogContent>
          <DialogTitle>Connect Exchange</DialogTitle>
          <DialogDescription>Choose an exchange to start trading.</DialogDescription>
          <Input aria-label="API Key" />
        </DialogContent>
      </Dialog>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect Exchange' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(screen.getByText('Choose an exchange to start trading.').id).toBe(
      dialog.getAttribute('aria-describedby'),
    );
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('Badge, Spinner', () => {
  it('badge variants map to the token colours', () => {
    render(<Badge variant="destructive">LIVE</Badge>);
    expect(screen.getByText('LIVE').className).toContain('ui:bg-destructive');
  });

  it('spinner is a polite status with its label', () => {
    render(<Spinner label="Initializing exchanges..." />);
    expect(screen.getByRole('status').textContent).toBe('Initializing exchanges...');
  });
});

describe('EnvironmentBadge', () => {
  it('names mainnet as real money and testnet plainly', () => {
    render(
      <>
        <EnvironmentBadge environment="mainnet" />
        <EnvironmentBadge environment="testnet" />
      </>,
    );
    expect(screen.getByLabelText('Trades on mainnet, real money').textContent).toBe('Mainnet');
    expect(screen.getByLabelText('Trades on testnet').textContent).toBe('Testnet');
  });
});
