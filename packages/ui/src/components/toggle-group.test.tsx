import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ToggleGroup } from './toggle-group';

function Intervals() {
  const [value, setValue] = useState<'1m' | '1h' | '1d'>('1h');
  return (
    <ToggleGroup
      label="Chart interval"
      options={['1m', { value: '1h', label: 'Hour' }, '1d']}
      value={value}
      onChange={setValue}
    />
  );
}

describe('ToggleGroup', () => {
  it('is a named group of buttons, one pressed; a click or the keyboard presses another', async () => {
    const user = userEvent.setup();
    render(<Intervals />);
    const group = screen.getByRole('group', { name: 'Chart interval' });
    const pressed = () =>
      within(group)
        .getAllByRole('button')
        .filter((b) => b.getAttribute('aria-pressed') === 'true')
        .map((b) => b.textContent);
    expect(pressed()).toEqual(['Hour']);
    await user.click(within(group).getByRole('button', { name: '1m' }));
    expect(pressed()).toEqual(['1m']);
    within(group).getByRole('button', { name: '1d' }).focus();
    await user.keyboard('{Enter}');
    expect(pressed()).toEqual(['1d']);
  });
});
