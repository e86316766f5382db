import type { DashboardPortfolio, FuturesPosition } from '@kestrel/contracts';
import { describe, expect, it } from 'vitest';
import {
  liquidationPrice,
  marginAllocation,
  positionLeverage,
  positionRoe,
  remark,
  remarkPortfolio,
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

/**
 * A snapshot whose one position is the short above (all of the exposure, 3.2 % of the margin): each test gives the
 * account's totals and balances it reads
 */
function holdingThePosition(
  totals: DashboardPortfolio['totals'],
  assets: DashboardPortfolio['assets'] = [],
): DashboardPortfolio {
  return {
    totals,
    assets,
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
}

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
    const portfolio = holdingThePosition({
      walletBalance: '990',
      unrealizedPnl: '10',
      marginBalance: '1000',
      availableBalance: '948',
      initialMargin: '52',
      maintMargin: '2.56',
    });
    expect(marginAllocation(portfolio).map((s) => [s.label, s.value, s.share])).toEqual([
      ['BTCUSDT', 32, 0.032],
      ['Open orders', 20, 0.02],
      ['Available', 948, 0.948],
    ]);
    const empty = { ...portfolio, totals: { ...portfolio.totals, marginBalance: '0' } };
    expect(marginAllocation(empty)).toEqual([]);
  });

  it('re-marks a short at a pushed mark price, and moves every account figure by the same PnL', () => {
    const moved = remark(position, '63000');
    expect(moved).toMatchObject({ markPrice: '63000', notional: '-630', unrealizedPnl: '20' });
    expect(remark(position, 'NaN')).toBe(position);
    const portfolio = holdingThePosition(
      {
        walletBalance: '990',
        unrealizedPnl: '10',
        marginBalance: '1000',
        availableBalance: '958',
        initialMargin: '32',
        maintMargin: '2.56',
      },
      [
        {
          asset: 'USDT',
          walletBalance: '990',
          unrealizedPnl: '10',
          marginBalance: '1000',
          availableBalance: '958',
          usdtValue: '1000',
          share: '0.8',
        },
        {
          asset: 'BNB',
          walletBalance: '0.5',
          unrealizedPnl: '0',
          marginBalance: '0.5',
          availableBalance: '0.5',
          usdtValue: '250',
          share: '0.2',
        },
      ],
    );
    const shown = remarkPortfolio(portfolio, new Map([['BTCUSDT', { markPrice: '63000' }]]));
    expect(shown.positions).toEqual([moved]);
    expect(shown.totals).toMatchObject({ unrealizedPnl: '20', marginBalance: '1010', walletBalance: '990' });
    // The USDT row moves with the cards; the BNB row does not
    expect(
      shown.assets.map((a) => [a.asset, a.unrealizedPnl, a.marginBalance, a.usdtValue, a.share]),
    ).toEqual([
      ['USDT', '20', '1010', '1010', '0.8016'],
      ['BNB', '0', '0.5', '250', '0.1984'],
    ]);
    expect(shown.allocation).toMatchObject({ grossExposure: '630', netExposure: '-630' });
    // No push for the symbol: the snapshot itself
    expect(remarkPortfolio(portfolio, new Map())).toBe(portfolio);
  });
});
