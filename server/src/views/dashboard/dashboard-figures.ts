import type { DashboardOverview, DashboardPortfolio, PortfolioAsset, RealizedPnl } from '@kestrel/contracts';
import { Decimal } from 'decimal.js';
import { isOpenPosition, marginRatio, share } from '../../core/exchange/account-figures';
import type { AccountSnapshot, AssetBalance, Order, Position } from '../../core/exchange/exchange-adapter';

/** Own configuration: the exchange simulator sets the shared default one when it runs in the same process */
const Exact = Decimal.clone({ precision: 64 });
/** The account cards from one read of the account, its open orders and today's income */
export function dashboardOverview(input: {
  account: AccountSnapshot;
  openOrders: readonly Order[];
  today: RealizedPnl;
  activeBots: number;
  asOf: number;
}): DashboardOverview {
  const { account } = input;
  return {
    walletBalance: account.totalWalletBalance,
    marginBalance: account.totalMarginBalance,
    availableMargin: account.availableBalance,
    unrealizedPnl: account.totalUnrealizedPnl,
    initialMargin: account.totalInitialMargin,
    maintenanceMargin: account.totalMaintMargin,
    marginRatio: marginRatio(account.totalMaintMargin, account.totalMarginBalance),
    today: input.today,
    openPositions: account.positions.filter(isOpenPosition).length,
    openOrders: input.openOrders.length,
    activeBots: input.activeBots,
    asOf: input.asOf,
  };
}

const isZero = (v: string) => new Exact(v).isZero();

/** An asset with something in it (the exchange may list empty ones) */
export function isHeld(a: AssetBalance): boolean {
  return ![a.walletBalance, a.unrealizedPnl, a.marginBalance, a.availableBalance].every(isZero);
}

/**
 * Balances per asset valued in USDT (`prices`: USDT per unit of each asset, undefined when unknown), the open
 * positions and each one's share of the exposure and of the margin balance
 */
export function dashboardPortfolio(input: {
  account: AccountSnapshot;
  positions: readonly Position[];
  prices: ReadonlyMap<string, string | undefined>;
  asOf: number;
}): DashboardPortfolio {
  const { account } = input;
  const held = account.assets.filter(isHeld);
  const valued = held.map((a) => {
    const price = a.asset === 'USDT' ? '1' : input.prices.get(a.asset);
    return { a, value: price === undefined ? null : new Exact(a.marginBalance).times(price) };
  });
  const total = valued.reduce((sum, v) => (v.value ? sum.plus(v.value) : sum), new Exact(0));
  const assets: PortfolioAsset[] = valued.map(({ a, value }) => ({
    asset: a.asset,
    walletBalance: a.walletBalance,
    unrealizedPnl: a.unrealizedPnl,
    marginBalance: a.marginBalance,
    availableBalance: a.availableBalance,
    usdtValue: value === null ? null : plain(value),
    share: value === null ? null : share(value, total),
  }));
  const open = input.positions.filter(isOpenPosition);
  const gross = open.reduce((sum, p) => sum.plus(new Exact(p.notional).abs()), new Exact(0));
  const net = open.reduce((sum, p) => sum.plus(p.notional), new Exact(0));
  return {
    totals: {
      walletBalance: account.totalWalletBalance,
      unrealizedPnl: account.totalUnrealizedPnl,
      marginBalance: account.totalMarginBalance,
      availableBalance: account.availableBalance,
      initialMargin: account.totalInitialMargin,
      maintMargin: account.totalMaintMargin,
    },
    assets,
    positions: open,
    allocation: {
      grossExposure: plain(gross),
      netExposure: plain(net),
      positions: open.map((p) => {
        const exposure = new Exact(p.notional).abs();
        return {
          symbol: p.symbol,
          positionSide: p.positionSide,
          exposure: plain(exposure),
          exposureShare: share(exposure, gross),
          marginShare: share(p.initialMargin, account.totalMarginBalance),
        };
      }),
    },
    asOf: input.asOf,
  };
}

/** Plain notation without trailing zeros; never "-0" */
function plain(d: Decimal): string {
  return d.isZero() ? '0' : d.toFixed();
}
