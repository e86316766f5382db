import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './select';

beforeAll(() => {
  // happy-dom lacks what Radix Select calls on open; browsers have them
  Element.prototype.scrollIntoView ??= () => {};
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
});

function Interval() {
  const [value, setValue] = useState('1h');
  return (
    <>
      <span id="interval-label">Interval</span>
      <Select value={value} onValueChange={setValue}>
        <SelectTrigger aria-labelledby="interval-label">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value="1m">1 minute</SelectItem>
          <SelectItem value="1h">1 hour</SelectItem>
          <SelectItem value="4h">4 hours</SelectItem>
          <SelectItem value="1d" disabled>
            1 day
          </SelectItem>
        </SelectContent>
      </Select>
      <output>{value}</output>
    </>
  );
}

describe('Select', () => {
  it('is a named combobox showing the chosen option', () => {
    render(<Interval />);
    const trigger = screen.getByRole('combobox', { name: 'Interval' });
    expect(trigger.textContent).toContain('1 hour');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
  });

  it('opens from the keyboard, moves with the arrows and picks with Enter', async () => {
    const user = userEvent.setup();
    render(<Interval />);
    const trigger = screen.getByRole('combobox', { name: 'Interval' });
    trigger.focus();
    await user.keyboard('{Enter}');
    const listbox = await screen.findByRole('listbox');
    expect(listbox).toBeTruthy();
    expect(screen.getByRole('option', { name: '1 hour' }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('option', { name: '4 hours' }));
    // The disabled option is skipped: ArrowDown stays on the last enabled one
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('option', { name: '4 hours' }));
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('4h');
    expect(trigger.textContent).toContain('4 hours');
    expect(document.activeElement).toBe(trigger);
  });

  it('closes on Escape without changing the value', async () => {
    const user = userEvent.setup();
    render(<Interval />);
    screen.getByRole('combobox', { name: 'Interval' }).focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('listbox');
    await user.keyboard('{ArrowUp}{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('1h');
  });
});
