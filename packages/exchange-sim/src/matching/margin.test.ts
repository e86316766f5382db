import { describe, expect, it } from 'vitest';
import { Decimal } from '../common/format';
import { buildBrackets, KNOWN_SYMBOLS } from '../common/symbols';
import { liquidationPrice, maintMargin } from './margin';
import { fundingRateFromPremium, nextFundingTime } from './market';

const btc = KNOWN_SYMBOLS.find((s) => s.symbol === 'BTCUSDT');
if (!btc) throw new Error('BTCUSDT missing');
const brackets = btc.brackets;

describe('brackets', () => {
  it('derives cum with cumₙ = floorₙ × (mmrₙ − mmrₙ₋₁) + cumₙ₋₁, matching Binance’s BTCUSDT table', () => {
    expect(brackets.slice(0, 6).map((b) => b.cum)).toEqual([0, 50, 950, 11450, 131450, 481450]);
    expect(
      buildBrackets([
        [10, 1000, 0.01],
        [5, 5000, 0.03],
      ]).map((b) => b.cum),
    ).toEqual([0, 20]);
  });

  it('takes MM from the bracket with floor < notional ≤ cap', () => {
    const p = { amt: new Decimal('10'), entryPrice: new Decimal(60000) };
    const pos = {
      ...p,
      symbol: 'BTCUSDT',
      positionSide: 'BOTH' as const,
      isolatedWallet: new Decimal(0),
      accumulatedRealized: new Decimal(0),
      updateTime: 0,
    };
    // 600000 is the cap of bracket 2: 600000 × 0.5% − 50
    expect(maintMargin(pos, 60000, brackets).toString()).toBe('2950');
    // 600010 is in bracket 3: 600010 × 0.65% − 950
    expect(maintMargin(pos, 60001, brackets).toString()).toBe('2950.065');
  });
});

describe('liquidation price (Binance USDⓈ-M formula)', () => {
  it('isolated long 1 BTC at 60000 with 3000 margin: (3000 + 50 − 60000) / (0.005 − 1)', () => {
    const lp = liquidationPrice({
      walletBalance: 3000,
      otherMaintMargin: 0,
      otherUnrealizedPnl: 0,
      both: { amt: 1, entryPrice: 60000 },
      brackets,
    });
    expect(lp.toFixed(8)).toBe('57236.18090452');
  });

  it('isolated short 2 BTC at 60000 with 6000 margin: (6000 + 50 + 120000) / (0.01 + 2)', () => {
    const lp = liquidationPrice({
      walletBalance: 6000,
      otherMaintMargin: 0,
      otherUnrealizedPnl: 0,
      both: { amt: -2, entryPrice: 60000 },
      brackets,
    });
    expect(lp.toFixed(8)).toBe('62711.44278607');
  });

  it('moves to the bracket the liquidation price falls in (10.5 BTC: bracket 3 at entry, 2 at LP)', () => {
    const lp = liquidationPrice({
      walletBalance: 60000,
      otherMaintMargin: 0,
      otherUnrealizedPnl: 0,
      both: { amt: '10.5', entryPrice: 60000 },
      brackets,
    });
    // (60000 + 50 − 630000) / (10.5 × 0.005 − 10.5)
    expect(lp.toFixed(8)).toBe('54553.72098588');
  });

  it('counts other cross positions through TMM1 and UPNL1, and answers 0 when never liquidated', () => {
    const base = { walletBalance: 3000, both: { amt: 1, entryPrice: 60000 }, brackets };
    const withOthers = liquidationPrice({ ...base, otherMaintMargin: 100, otherUnrealizedPnl: -400 });
    // (3000 − 100 − 400 + 50 − 60000) / (0.005 − 1)
    expect(withOthers.toFixed(8)).toBe(new Decimal(-57450).div(-0.995).toFixed(8));
    const safe = liquidationPrice({
      ...base,
      walletBalance: 100_000,
      otherMaintMargin: 0,
      otherUnrealizedPnl: 0,
    });
    expect(safe.toString()).toBe('0');
  });

  it('handles hedge-mode LONG and SHORT legs together', () => {
    const lp = liquidationPrice({
      walletBalance: 1000,
      otherMaintMargin: 0,
      otherUnrealizedPnl: 0,
      long: { amt: 1, entryPrice: 60000 },
      short: { amt: -0.5, entryPrice: 60000 },
      brackets,
    });
    // Long ~58.7k notional is in bracket 2 (0.5%, cum 50), short ~29.4k in bracket 1 (0.4%, cum 0):
    // (1000 + 50 + 0 − 1 × 60000 + 0.5 × 60000) / (1 × 0.005 + 0.5 × 0.004 − 1 + 0.5)
    expect(lp.toFixed(6)).toBe(new Decimal(-28950).div(-0.493).toFixed(6));
  });
});

describe('funding', () => {
  it('applies premium + clamp(interest − premium, ±0.05%)', () => {
    expect(fundingRateFromPremium(0.0001)).toBeCloseTo(0.0001, 12);
    expect(fundingRateFromPremium(0.0003)).toBeCloseTo(0.0001, 12);
    expect(fundingRateFromPremium(0.001)).toBeCloseTo(0.0005, 12);
    expect(fundingRateFromPremium(-0.001)).toBeCloseTo(-0.0005, 12);
    expect(fundingRateFromPremium(0.02)).toBeCloseTo(0.0075, 12);
  });

  it('settles at 00:00, 08:00 and 16:00 UTC', () => {
    expect(nextFundingTime(Date.UTC(2026, 0, 15, 9, 30))).toBe(Date.UTC(2026, 0, 15, 16));
    expect(nextFundingTime(Date.UTC(2026, 0, 15, 16))).toBe(Date.UTC(2026, 0, 16, 0));
    expect(nextFundingTime(Date.UTC(2026, 0, 15, 23, 59, 59))).toBe(Date.UTC(2026, 0, 16, 0));
  });
});
