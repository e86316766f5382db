import { describe, expect, it } from 'vitest';
import { metrics } from '../../../test/fixtures';
import {
  formatDateTime,
  formatMoney,
  formatPercent,
  formatPrice,
  formatProfitFactor,
  formatRatio,
  metricCards,
  NO_VALUE,
  toneOf,
} from './format';

describe('figure formatting', () => {
  it('shows fractions as percentages with two decimals, gains signed on request', () => {
    expect(formatPercent(0.12345)).toBe('12.35%');
    expect(formatPercent(0.1, { signed: true })).toBe('+10.00%');
    expect(formatPercent(-0.034, { signed: true })).toBe('-3.40%');
    expect(formatPercent(0, { signed: true })).toBe('0.00%');
  });

  it('shows money with thousands separators and never a signed zero', () => {
    expect(formatMoney(1234567.891)).toBe('1,234,567.89');
    expect(formatMoney(12.5, { signed: true })).toBe('+12.50');
    expect(formatMoney(-0.001, { signed: true })).toBe('0.00');
    expect(formatMoney(-7.456, { signed: true })).toBe('-7.46');
  });

  it('shows a dash for figures that do not exist', () => {
    expect(formatRatio(Number.NaN)).toBe(NO_VALUE);
    expect(formatPercent(Number.POSITIVE_INFINITY)).toBe(NO_VALUE);
    expect(formatMoney(null)).toBe(NO_VALUE);
  });

  it('reads a missing profit factor as no losing trade, or as nothing without trades', () => {
    expect(formatProfitFactor(null, 3)).toBe('∞');
    expect(formatProfitFactor(null, 0)).toBe(NO_VALUE);
    expect(formatProfitFactor(1.456, 3)).toBe('1.46');
  });

  it('gives prices the precision their size calls for', () => {
    expect(formatPrice(64_123.456)).toBe('64,123.46');
    expect(formatPrice(1.23456)).toBe('1.2346');
    expect(formatPrice(0.000123456)).toBe('0.000123');
  });

  it('colours gains and losses, and float noise as neither', () => {
    expect(toneOf(0.01)).toBe('positive');
    expect(toneOf(-0.01)).toBe('negative');
    expect(toneOf(1e-12)).toBe('neutral');
  });

  it('writes times in UTC', () => {
    expect(formatDateTime(Date.UTC(2025, 0, 31, 14, 5, 59))).toBe('2025-01-31 14:05');
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
