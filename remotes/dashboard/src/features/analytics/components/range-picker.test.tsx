import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RangePicker } from './range-picker';

describe('the range picker', () => {
  it('a preset is pressed and chosen at once', async () => {
    const onChange = vi.fn();
    render(<RangePicker value={{ preset: '30d' }} onChange={onChange} />);
    expect(screen.getByRole('button', { name: '30 d' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: '90 d' }));
    expect(onChange).toHaveBeenCalledWith({ preset: '90d' });
  });

  it('custom dates apply together; dates in the wrong order are refused with the reason', async () => {
    const onChange = vi.fn();
    render(<RangePicker value={{ preset: '30d' }} onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: 'Custom' }));
    const from = screen.getByLabelText('From (UTC)');
    const to = screen.getByLabelText('To (UTC)');
    await userEvent.clear(to);
    await userEvent.type(to, '2026-11-01');
    await userEvent.type(from, '2026-11-10');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByRole('alert').textContent).toBe('The start date must not be after the end date');
    expect(onChange).not.toHaveBeenCalled();
    await userEvent.clear(from);
    await userEvent.type(from, '2026-10-20');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenCalledWith({ preset: 'custom', from: '2026-10-20', to: '2026-11-01' });
  });
});
