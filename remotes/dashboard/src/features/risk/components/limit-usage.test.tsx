import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LimitUsageList } from './limit-usage';

describe('the limit usage list', () => {
  it('an unset limit shows no number, only that no limit is set; a set one shows current of limit', () => {
    render(
      <LimitUsageList
        usage={[
          { name: 'maxLeverage', limit: null, current: 0, usedPercent: null, breached: false },
          { name: 'dailyLossLimit', limit: 200, current: 50, usedPercent: 25, breached: false },
        ]}
      />,
    );
    const [leverage, loss] = within(screen.getByRole('list', { name: 'Limit usage' })).getAllByRole(
      'listitem',
    );
    expect(leverage?.textContent).toBe('Max leverage No limit set');
    expect(leverage?.textContent).not.toMatch(/\d/);
    expect(loss?.textContent).toBe('Daily loss 50 USDT of 200 USDT25 % of limit used');
  });
});
