import { describe, expect, it } from 'vitest';
import { killSwitchPlan, limitFigure, usageText } from './risk-words';

describe('risk words', () => {
  it('the kill switch says exactly what it will do', () => {
    expect(killSwitchPlan(3, 2)).toBe('Cancel 3 orders and close 2 positions at market.');
    expect(killSwitchPlan(1, 0)).toBe('Cancel 1 order.');
    expect(killSwitchPlan(0, 1)).toBe('Close 1 position at market.');
    expect(killSwitchPlan(0, 0)).toBe('Nothing is open: no orders to cancel and no positions to close.');
  });

  it('limit usage reads as a share of the limit', () => {
    const u = { name: 'dailyLossLimit' as const, limit: 50, current: 20, usedPercent: 40, breached: false };
    expect(usageText(u)).toBe('40 % of limit used');
    expect(usageText({ ...u, current: 60, usedPercent: 120, breached: true })).toBe(
      'Limit reached: 120 % of limit used',
    );
    expect(usageText({ ...u, limit: null, usedPercent: null })).toBe('No limit set');
    expect(limitFigure('maxLeverage', 2.456)).toBe('2.46×');
    expect(limitFigure('dailyLossLimit', 1250)).toBe('1,250 USDT');
  });
});
