import { describe, expect, it, vi } from 'vitest';
import {
  formatAssetAmount,
  formatInteger,
  formatPercent,
  formatPnl,
  formatPrice,
  formatQuantity,
  formatRatio,
  formatUsdt,
  NO_VALUE,
  stepDecimals,
  toneOf,
} from './format';

describe('figures', () => {
  it('shows an asset amount with every decimal the exchange booked, a stablecoin with at least cents', () => {
    expect(formatAssetAmount(0.14992912, 'USDT')).toBe('0.14992912');
    expect(formatAssetAmount(0.15, 'USDT')).toBe('0.15');
    expect(formatAssetAmount(1234.5, 'USDC')).toBe('1,234.50');
    expect(formatAssetAmount(0.00001234, 'BNB')).toBe('0.00001234');
    expect(formatAssetAmount(2, 'BNB')).toBe('2');
    expect(formatAssetAmount(-0.0012, 'USDT', { signed: true })).toBe('-0.0012');
    expect(formatAssetAmount(0.5, 'USDT', { signed: true })).toBe('+0.50');
    expect(formatAssetAmount(Number.NaN, 'USDT')).toBe(NO_VALUE);
  });

  it('never shows a signed zero: -0 and values that round to zero read as zero', () => {
    expect(formatUsdt(-0)).toBe('0.00');
    expect(formatUsdt(-0.004)).toBe('0.00');
    expect(formatUsdt(-0.004, { signed: true })).toBe('0.00');
    expect(formatPercent(-0.00001, { signed: true })).toBe('0.00%');
    expect(formatPrice(-0, { precision: 1 })).toBe('0.0');
    expect(formatQuantity(-0)).toBe('0');
    expect(formatInteger(-0.4)).toBe('0');
  });

  it('rounds half away from zero on the decimal the trader reads, not its binary neighbour', () => {
    // 2.345 and 1.005 are stored just below their decimal value; the shown figure still rounds up
    expect(formatUsdt(2.345)).toBe('2.35');
    expect(formatUsdt(1.005)).toBe('1.01');
    expect(formatUsdt(-2.345, { signed: true })).toBe('-2.35');
    expect(formatPrice(64_123.45, { precision: 1 })).toBe('64,123.5');
    expect(formatRatio(1.455)).toBe('1.46');
  });

  it('keeps large numbers whole, thousands separated, never in exponent form', () => {
    expect(formatUsdt(1_234_567_890.126)).toBe('1,234,567,890.13');
    expect(formatUsdt(1e21)).toBe('1,000,000,000,000,000,000,000.00');
    expect(formatInteger(12_345_678)).toBe('12,345,678');
    expect(formatQuantity(250_000)).toBe('250,000');
  });

  it('reads the same whatever the browser locale (en-US digits and separators)', async () => {
    // A German browser: a formatter without an explicit locale would write 1.234,50
    const Original = Intl.NumberFormat;
    const German = function germanNumberFormat(
      locales?: Intl.LocalesArgument,
      options?: Intl.NumberFormatOptions,
    ) {
      return new Original(locales ?? 'de-DE', options);
    } as unknown as typeof Intl.NumberFormat;
    vi.stubGlobal('Intl', Object.assign(Object.create(Intl) as typeof Intl, { NumberFormat: German }));
    vi.resetModules();
    try {
      const fresh = await import('./format');
      expect(new Intl.NumberFormat().format(1234.5)).toBe('1.234,5');
      expect(fresh.formatUsdt(1234.5)).toBe('1,234.50');
      expect(fresh.formatPrice(0.5, { precision: 2 })).toBe('0.50');
      expect(fresh.formatPercent(0.5)).toBe('50.00%');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("gives a price the symbol's precision, else the precision its size calls for", () => {
    expect(formatPrice(64_123.456, { precision: stepDecimals('0.10') })).toBe('64,123.5');
    expect(formatPrice(0.1, { precision: stepDecimals('0.00001') })).toBe('0.10000');
    expect(formatPrice(64_123.456)).toBe('64,123.46');
    expect(formatPrice(1.23456)).toBe('1.2346');
    expect(formatPrice(0.000123456)).toBe('0.000123');
  });

  it("gives a quantity the symbol's lot precision, else its own decimals up to 8", () => {
    expect(formatQuantity(0.015, { precision: stepDecimals('0.001') })).toBe('0.015');
    expect(formatQuantity(2, { precision: 3 })).toBe('2.000');
    expect(formatQuantity(0.015)).toBe('0.015');
    expect(formatQuantity(0.123456789)).toBe('0.12345679');
  });

  it('reads exchange steps as decimals', () => {
    expect(stepDecimals('0.10')).toBe(1);
    expect(stepDecimals('0.001')).toBe(3);
    expect(stepDecimals('1')).toBe(0);
    expect(stepDecimals(1e-8)).toBe(8);
  });

  it('signs PnL with + and -, and colours it by what it reads as', () => {
    expect(formatPnl(12.5)).toEqual({ text: '+12.50', tone: 'positive', className: 'ui:text-success' });
    expect(formatPnl(-3.2)).toEqual({ text: '-3.20', tone: 'negative', className: 'ui:text-destructive' });
    // A loss too small to show is not painted red beside "0.00"
    expect(formatPnl(-0.004)).toEqual({ text: '0.00', tone: 'neutral', className: '' });
    expect(formatPnl(0.005)).toEqual({ text: '+0.01', tone: 'positive', className: 'ui:text-success' });
  });

  it('shows percentages of fractions, gains signed on request', () => {
    expect(formatPercent(0.12345)).toBe('12.35%');
    expect(formatPercent(0.1, { signed: true })).toBe('+10.00%');
    expect(formatPercent(-0.034, { signed: true })).toBe('-3.40%');
    expect(formatPercent(0.5, { digits: 0 })).toBe('50%');
  });

  it('shows a dash for figures that do not exist', () => {
    for (const missing of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatUsdt(missing)).toBe(NO_VALUE);
      expect(formatPrice(missing)).toBe(NO_VALUE);
      expect(formatQuantity(missing)).toBe(NO_VALUE);
      expect(formatPercent(missing)).toBe(NO_VALUE);
      expect(formatPnl(missing).text).toBe(NO_VALUE);
    }
  });

  it('treats float noise as neither gain nor loss', () => {
    expect(toneOf(0.01)).toBe('positive');
    expect(toneOf(-0.01)).toBe('negative');
    expect(toneOf(1e-12)).toBe('neutral');
    expect(toneOf(-0.004, { digits: 2 })).toBe('neutral');
  });
});
