import { describe, expect, it } from 'vitest';
import { marginRatio, realizedPnl } from '../../core/exchange/account-figures';
import type { AccountSnapshot, Position } from '../../core/exchange/exchange-adapter';
import { startOfUtcDay } from '../../lib/clock';
import { dashboardPortfolio } from './dashboard-figures';

const account = (over: Partial<AccountSnapshot> = {}): AccountSnapshot => ({
  totalWalletBalance: '1000',
  totalUnrealizedPnl: '0',
  totalMarginBalance: '1000',
  totalInitialMargin: '0',
  totalMaintMargin: '0',
  availableBalance: '1000',
  assets: [
    {
      asset: 'USDT',
      walletBalance: '1000',
      unrealizedPnl: '0',
      marginBalance: '1000',
      availableBalance: '1000',
    },
    { asset: 'BNB', walletBalance: '0', unrealizedPnl: '0', marginBalance: '0', availableBalance: '0' },
  ],
  positions: [],
  ...over,
});
const position = (symbol: string, positionSide: Position['positionSide'], notional: string): Position => ({
  symbol,
  positionSide,
  amount: notional.startsWith('-') ? '-1' : '1',
  entryPrice: '100',
  markPrice: '100',
  unrealizedPnl: '0',
  liquidationPrice: '0',
  notional,
  initialMargin: String(Math.abs(Number(notional)) / 10),
  maintenanceMargin: '1',
  updatedAt: 0,
});

describe('dashboard figures', () => {
  it('margin ratio: 4 decimals, 0 without margin, 1 once the margin balance is gone', () => {
    expect(marginRatio('12.5', '1000')).toBe('0.0125');
    expect(marginRatio('0', '1000')).toBe('0');
    expect(marginRatio('0', '0')).toBe('0');
    expect(marginRatio('5', '0')).toBe('1.0000');
    expect(marginRatio('5', '-20')).toBe('1.0000');
  });

  it('today starts at 00:00 UTC', () => {
    expect(startOfUtcDay(Date.UTC(2026, 0, 15, 23, 59, 59, 999))).toBe(Date.UTC(2026, 0, 15));
    expect(startOfUtcDay(Date.UTC(2026, 0, 16))).toBe(Date.UTC(2026, 0, 16));
  });

  it('realized figures sum exactly and leave transfers out', () => {
    const pnl = realizedPnl(
      [
        { incomeType: 'REALIZED_PNL', income: '0.1' },
        { incomeType: 'REALIZED_PNL', income: '0.2' },
        { incomeType: 'COMMISSION', income: '-0.3' },
        { incomeType: 'FUNDING_FEE', income: '-0.05' },
        { incomeType: 'TRANSFER', income: '500' },
      ],
      { from: 0, to: 1 },
    );
    expect(pnl).toEqual({
      from: 0,
      to: 1,
      realizedPnl: '0.3',
      commission: '-0.3',
      fundingFee: '-0.05',
      net: '-0.05',
    });
  });

  it('hedge mode: gross exposure adds both sides, net subtracts the short; empty assets are left out', () => {
    const p = dashboardPortfolio({
      account: account(),
      positions: [
        position('BTCUSDT', 'LONG', '300'),
        position('BTCUSDT', 'SHORT', '-100'),
        { ...position('ETHUSDT', 'BOTH', '0'), amount: '0' },
      ],
      prices: new Map(),
      asOf: 5,
    });
    expect(p.assets.map((a) => a.asset)).toEqual(['USDT']);
    expect(p.positions.map((x) => x.positionSide)).toEqual(['LONG', 'SHORT']);
    expect(p.allocation).toEqual({
      grossExposure: '400',
      netExposure: '200',
      positions: [
        {
          symbol: 'BTCUSDT',
          positionSide: 'LONG',
          exposure: '300',
          exposureShare: '0.7500',
          marginShare: '0.0300',
        },
        {
          symbol: 'BTCUSDT',
          positionSide: 'SHORT',
          exposure: '100',
          exposureShare: '0.2500',
          marginShare: '0.0100',
        },
      ],
    });
  });
});
