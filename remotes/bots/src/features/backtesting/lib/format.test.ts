import { NO_VALUE } from '@kestrel/ui';
import { describe, expect, it } from 'vitest';
import { metrics } from '../../../test/fixtures';
import { formatProfitFactor, metricCards } from './format';

// How each figure reads (signs, rounding, dashes) is @kestrel/ui's formatter, tested there
describe('profit factor', () => {
  it('reads a missing profit factor as no losing trade, or as nothing without trades', () => {
    expect(formatProfitFactor(null, 3)).toBe('∞');
    expect(formatProfitFactor(null, 0)).toBe(NO_VALUE);
    expect(formatProfitFactor(1.456, 3)).toBe('1.46');
  });
});

describe('metric cards', () => {
  const byKey = (m = metrics()) => Object.fromEntries(metricCards(m).map((c) => [c.key, c]));

  it('has one card for each figure the trader reads', () => {
    expect(metricCards(metrics()).map((c) => c.label)).toEqual([
      'Total return',
      'Annualised return',
      'Max drawdown',
      'Sharpe',
      'Sortino',
      'Calmar',
      'Win rate',
      'Profit factor',
      'Exposure',
      'Fees paid',
      'Funding paid',
      'Trades',
    ]);
  });

  it('shows a gain in green and the drawdown as a loss in red', () => {
    const cards = byKey();
    expect(cards.totalReturn).toMatchObject({
      value: '+10.00%',
      tone: 'positive',
      hint: '10,000.00 → 11,000.00 USDT',
    });
    expect(cards.maxDrawdown).toMatchObject({ value: '-5.00%', tone: 'negative' });
  });

  it('shows a losing run in red', () => {
    const cards = byKey(
      metrics({ totalReturn: -0.2, annualisedReturn: -0.6, sharpe: -0.8, profitFactor: 0.5 }),
    );
    expect(cards.totalReturn).toMatchObject({ value: '-20.00%', tone: 'negative' });
    expect(cards.sharpe).toMatchObject({ value: '-0.80', tone: 'negative' });
    expect(cards.profitFactor).toMatchObject({ value: '0.50', tone: 'negative' });
  });

  it('says funding was received when the engine reports it negative', () => {
    expect(byKey(metrics({ fundingPaid: -4.2 })).fundingPaid).toMatchObject({
      label: 'Funding received',
      value: '4.20',
      tone: 'positive',
    });
    expect(byKey().fundingPaid).toMatchObject({ label: 'Funding paid', value: '3.25', tone: 'negative' });
  });

  it('has no win rate without trades and names liquidations', () => {
    const none = byKey(metrics({ tradeCount: 0, winRate: 0, profitFactor: null }));
    expect(none.winRate?.value).toBe(NO_VALUE);
    expect(none.profitFactor?.value).toBe(NO_VALUE);
    expect(byKey(metrics({ liquidations: 2 })).tradeCount?.hint).toBe('2 liquidated');
  });
});
