import { describe, expect, it } from 'vitest';
import { killSwitchPlan, killSwitchSummary, limitFigure, usageText } from './risk-words';

describe('risk words', () => {
  it('the kill switch says exactly what it will do', () => {
    expect(killSwitchPlan(3, 2)).toBe('Cancel 3 orders and close 2 positions at market.');
    expect(killSwitchPlan(1, 0)).toBe('Cancel 1 order.');
    expect(killSwitchPlan(0, 1)).toBe('Close 1 position at market.');
    expect(killSwitchPlan(0, 0)).toBe('Nothing is open: no orders to cancel and no positions to close.');
    // Running bots stop first and cancel their own orders: the orders counted now include theirs
    expect(killSwitchPlan(11, 1, ['Grid A', 'Grid B', 'DCA C'])).toBe(
      'Stop 3 running bots first (Grid A, Grid B and DCA C), each canceling its own orders, then cancel what is ' +
        'still open (11 orders now, the bots’ included) and close 1 position at market.',
    );
    expect(killSwitchPlan(0, 0, ['Grid A'])).toBe(
      'Stop 1 running bot first (Grid A), each canceling its own orders.',
    );
  });

  it('sums up the outcome: the bots it stopped, then what it found still open after them', () => {
    const ok = { ok: true };
    expect(killSwitchSummary({ botsStopped: 0, orders: [ok], positions: [ok], failed: 0 })).toBe(
      'Canceled 1 of 1 order, closed 1 of 1 position',
    );
    expect(killSwitchSummary({ botsStopped: 3, orders: [ok, { ok: false }], positions: [], failed: 1 })).toBe(
      'Stopped 3 bots, each canceling its own orders; then canceled 1 of 2 orders still open, closed 0 of 0 positions; 1 failed',
    );
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
