import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

const base = {
  open: true,
  title: 'Close position',
  description: 'Close 0.010 BTCUSDT long at market, reduce-only',
  confirmLabel: 'Close position',
};

describe('ConfirmDialog', () => {
  it('says what will happen and closes once the action is sent', async () => {
    let resolve: () => void = () => {};
    const onOpenChange = vi.fn();
    render(
      <ConfirmDialog
        {...base}
        onOpenChange={onOpenChange}
        onConfirm={() => new Promise<void>((r) => (resolve = r))}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Close position' });
    expect(dialog.textContent).toContain('Close 0.010 BTCUSDT long at market, reduce-only');
    fireEvent.click(screen.getByRole('button', { name: 'Close position' }));
    // Sent once: the button is off and the dialog has no corner close while the answer is on its way
    expect(screen.getByRole('button', { name: 'Sending…' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Back' }).hasAttribute('disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    await act(async () => resolve());
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('stays open with the refusal, and keeps the button off after a final one', async () => {
    const onOpenChange = vi.fn();
    const { rerender } = render(
      <ConfirmDialog
        {...base}
        onOpenChange={onOpenChange}
        onConfirm={() => Promise.reject(new Error('-2019'))}
      />,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Close position' })));
    expect(screen.getByRole('alert').textContent).toBe('-2019');
    expect(screen.getByRole('button', { name: 'Close position' }).hasAttribute('disabled')).toBe(false);
    expect(onOpenChange).not.toHaveBeenCalled();

    rerender(
      <ConfirmDialog
        {...base}
        onOpenChange={onOpenChange}
        onConfirm={() => Promise.reject(new Error('timeout'))}
        describeFailure={() => ({ message: 'Status unknown', final: true })}
      />,
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Close position' })));
    expect(screen.getByRole('alert').textContent).toBe('Status unknown');
    expect(screen.getByRole('button', { name: 'Close position' }).hasAttribute('disabled')).toBe(true);
  });

  it('closes at once for an action that returns no promise, and goes back by its cancel label', () => {
    const onOpenChange = vi.fn();
    const onConfirm = vi.fn();
    render(
      <ConfirmDialog
        {...base}
        tone="note"
        cancelLabel="Keep trading"
        onOpenChange={onOpenChange}
        onConfirm={onConfirm}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Keep trading' }));
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    fireEvent.click(screen.getByRole('button', { name: 'Close position' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(onOpenChange).toHaveBeenCalledTimes(2);
  });
});
