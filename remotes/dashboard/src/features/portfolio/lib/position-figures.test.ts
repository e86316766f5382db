import type { DashboardPortfolio, FuturesPosition } from '@kestrel/contracts';
import { describe, expect, it } from 'vitest';
import {
  liquidationPrice,
  marginAllocation,
  positionLeverage,
  positionRoe,
  remark,
  remarkAccount,
} from './position-figures';

const position: FuturesPosition = {
  symbol: 'BTCUSDT',
  positionSide: 'BOTH',
  amount: '-0.010',
  entryPrice: '65000',
  markPrice: '64000',
  unrealizedPnl: '10',
  liquidationPrice: '70000',
  notional: '-640',
  initialMargin: '32',
  maintenanceMargin: '2.56',
  updatedAt: 0,
};

describe('position figures', () => {
  it("reads leverage and ROE as Binance's columns do, a short's notional being negative", () => {
    expect(positionLeverage(position)).toBe(20);
    expect(positionRoe(position)).toBeCloseTo(0.3125);
  });

  it('has no leverage, ROE or liquidation price where the exchange gives no margin or none', () => {
    const flat = { ...position, initialMargin: '0', liquidationPrice: '0' };
    expect(positionLeverage(flat)).toBeNull();
    expect(positionRoe(flat)).toBeNull();
    expect(liquidationPrice(flat)).toBeNull();
  });

  it('splits the margin balance into positions, margin held by open orders, and what is free', () => {
    const portfolio: DashboardPortfolio = {
      totals: { walletBalance: '990', unrealizedPnl: '10', marginBalance: '1000', availableBalance: '948' },
      assets: [],
      positions: [position],
      allocation: {
        grossExposure: '640',
        netExposure: '-640',
        positions: [
          {
            symbol: 'BTCUSDT',
            positionSide: 'BOTH',
            exposure: '640',
            exposureShare: '1',
            marginShare: '0.032',
          },
        ],
      },
      asOf: 0,
    };
    expect(marginAllocation(portfolio).map((s) => [s.label, s.value, s.share])).toEqual([
      ['BTCUSDT', 32, 0.032],
      ['Open orders', 20, 0.02],
      ['Available', 948, 0.948],
    ]);
    const empty = { ...portfolio, totals: { ...portfolio.totals, marginBalance: '0' } };
    expect(marginAllocation(empty)).toEqual([]);
  });

  it('re-marks a short at a pushed mark price, and moves the account totals by the same PnL', () => {
    const moved = remark(position, '63000');
    expect(moved).toMatchObject({ markPrice: '63000', notional: '-630', unrealizedPnl: '20' });
    expect(remark(position, 'NaN')).toBe(position);
    const account = {
      totalWalletBalance: '990',
      totalUnrealizedPnl: '10',
      totalMarginBalance: '1000',
      totalInitialMargin: '32',
      totalMaintMargin: '2.56',
      availableBalance: '958',
      assets: [],
      positions: [position],
    };
    expect(remarkAccount(account, [moved])).toMatchObject({
      totalUnrealizedPnl: '20',
      totalMarginBalance: '1010',
      positions: [moved],
    });
  });
});
