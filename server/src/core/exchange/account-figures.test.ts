import { describe, expect, it } from 'vitest';
import { pnlSummary, riskAssessment } from './account-figures';
import type { AccountSnapshot, Position } from './exchange-adapter';

const account = (over: Partial<AccountSnapshot> = {}): AccountSnapshot => ({
  totalWalletBalance: '1000',
  totalUnrealizedPnl: '-12.5',
  totalMarginBalance: '987.5',
  totalInitialMargin: '200',
  totalMaintMargin: '10',
  availableBalance: '787.5',
  assets: [],
  positions: [],
  ...over,
});
const position = (over: Partial<Position> = {}): Position => ({
  symbol: 'BTCUSDT',
  positionSide: 'BOTH',
  amount: '0.1',
  entryPrice: '40000',
  markPrice: '40000',
  unrealizedPnl: '0',
  liquidationPrice: '30000',
  notional: '4000',
  initialMargin: '200',
  maintenanceMargin: '10',
  updatedAt: 0,
  ...over,
});

describe('riskAssessment', () => {
  it('computes margin ratio, effective leverage and liquidation distance by hand-checked figures', () => {
    const r = riskAssessment(account(), [position(), position({ symbol: 'ETHUSDT', amount: '0' })]);
    // 10 / 987.5 = 0.010126…; 4000 / 987.5 = 4.0506…; |40000 − 30000| / 40000 = 25 %
    expect(r).toMatchObject({ level: 'low', marginRatio: '0.0101', effectiveLeverage: '4.05' });
    expect(r.positions).toHaveLength(1);
    expect(r.positions[0]?.liquidationDistancePercent).toBe('25.00');
  });

  it('grades the margin ratio: none, medium, high, critical', () => {
    expect(riskAssessment(account(), []).level).toBe('none');
    expect(riskAssessment(account({ totalMaintMargin: '300' }), [position()]).level).toBe('medium');
    expect(riskAssessment(account({ totalMaintMargin: '600' }), [position()]).level).toBe('high');
    expect(riskAssessment(account({ totalMaintMargin: '800' }), [position()]).level).toBe('critical');
    expect(riskAssessment(account({ totalMarginBalance: '0' }), [position()]).level).toBe('critical');
    expect(
      riskAssessment(account(), [position({ liquidationPrice: '0' })]).positions[0]
        ?.liquidationDistancePercent,
    ).toBeNull();
  });
});

describe('pnlSummary', () => {
  it('sums income by kind and symbol exactly; transfers are not PnL', () => {
    const s = pnlSummary(
      [
        { symbol: 'BTCUSDT', incomeType: 'REALIZED_PNL', income: '10.1', asset: 'USDT', time: 1 },
        { symbol: 'BTCUSDT', incomeType: 'COMMISSION', income: '-0.2', asset: 'USDT', time: 1 },
        { symbol: 'ETHUSDT', incomeType: 'FUNDING_FEE', income: '-0.05', asset: 'USDT', time: 2 },
        { symbol: '', incomeType: 'TRANSFER', income: '500', asset: 'USDT', time: 3 },
      ],
      account(),
      { from: 0, to: 10 },
    );
    expect(s).toMatchObject({
      realizedPnl: '10.1',
      commission: '-0.2',
      fundingFee: '-0.05',
      netRealized: '9.85',
      unrealizedPnl: '-12.5',
    });
    expect(s.bySymbol).toEqual([
      { symbol: 'BTCUSDT', realizedPnl: '10.1', commission: '-0.2', fundingFee: '0' },
      { symbol: 'ETHUSDT', realizedPnl: '0', commission: '0', fundingFee: '-0.05' },
    ]);
  });
});
