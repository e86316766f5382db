import { errors } from '../common/errors';
import { Decimal, fixed, plain } from '../common/format';
import type { AccountFigures, PositionFigures } from '../matching/account-figures';
import type { Exchange } from '../matching/exchange';
import { liquidationPrice } from '../matching/margin';
import type { Account } from '../matching/types';
import {
  marketParam,
  marketsParam,
  optionalSymbol,
  type Route,
  type RouteContext,
  requireAccount,
} from './route';

const f8 = (d: Decimal.Value) => fixed(d, 8);

/** Liquidation price of a position with Binance's formula, with the other cross positions as TMM1/UPNL1 */
export function positionLiquidationPrice(figures: AccountFigures, pf: PositionFigures): Decimal {
  const sameSymbol = figures.positions.filter((x) => x.position.symbol === pf.position.symbol);
  const isolated = pf.marginType === 'ISOLATED';
  let otherMM = new Decimal(0);
  let otherUpnl = new Decimal(0);
  if (!isolated) {
    for (const x of figures.positions) {
      if (x.position.symbol === pf.position.symbol || x.marginType === 'ISOLATED') continue;
      otherMM = otherMM.plus(x.maintMargin);
      otherUpnl = otherUpnl.plus(x.unrealizedPnl);
    }
  }
  const legs = isolated ? [pf] : sameSymbol.filter((x) => x.marginType === 'CROSSED');
  const leg = (side: string) => {
    const x = legs.find((l) => l.position.positionSide === side && !l.position.amt.isZero());
    return x ? { amt: x.position.amt, entryPrice: x.position.entryPrice } : undefined;
  };
  return liquidationPrice({
    walletBalance: isolated ? pf.position.isolatedWallet : figures.crossWalletBalance,
    otherMaintMargin: otherMM,
    otherUnrealizedPnl: otherUpnl,
    both: leg('BOTH'),
    long: leg('LONG'),
    short: leg('SHORT'),
    brackets: pf.spec.brackets,
  });
}

function positionRisk(ctx: RouteContext) {
  const account = requireAccount(ctx);
  const symbol = optionalSymbol(ctx);
  const figures = ctx.exchange.figures(account, ctx.now);
  const adl = ctx.exchange.adlQuantiles(account);
  return figures.positions
    .filter((pf) => !symbol || pf.position.symbol === symbol)
    .filter((pf) => !pf.position.amt.isZero())
    .map((pf) => {
      const p = pf.position;
      const dir = p.amt.isNeg() ? -1 : 1;
      const isolated = pf.marginType === 'ISOLATED';
      const spec = pf.spec;
      const lp = positionLiquidationPrice(figures, pf);
      return {
        symbol: p.symbol,
        positionSide: p.positionSide,
        positionAmt: fixed(p.amt, spec.quantityPrecision),
        entryPrice: plain(p.entryPrice.toDecimalPlaces(8)),
        breakEvenPrice: plain(
          p.entryPrice.mul(new Decimal(1).plus(account.takerRate.mul(dir))).toDecimalPlaces(8),
        ),
        markPrice: f8(pf.mark),
        unRealizedProfit: f8(pf.unrealizedPnl),
        liquidationPrice: lp.isZero() ? '0' : f8(lp),
        isolatedMargin: isolated ? f8(p.isolatedWallet.plus(pf.unrealizedPnl)) : '0',
        notional: f8(pf.notional),
        marginAsset: 'USDT',
        isolatedWallet: isolated ? f8(p.isolatedWallet) : '0',
        initialMargin: f8(pf.initialMargin.plus(figures.openOrderMarginBySymbol.get(p.symbol) ?? 0)),
        maintMargin: f8(pf.maintMargin),
        positionInitialMargin: f8(pf.initialMargin),
        openOrderInitialMargin: f8(figures.openOrderMarginBySymbol.get(p.symbol) ?? 0),
        adl: adl.get(`${p.symbol}:${p.positionSide}`) ?? 0,
        bidNotional: '0',
        askNotional: '0',
        updateTime: p.updateTime,
      };
    });
}

/** Most the account could withdraw: its available balance, at most the cross wallet balance, at least 0 */
const maxWithdraw = (fig: AccountFigures) =>
  Decimal.max(0, Decimal.min(fig.availableBalance, fig.crossWalletBalance));

/**
 * An asset's cross-margin figures, in the order both balance answers (v3 account, balance) list them: USDT carries
 * the account's, any other asset (not margin in single-asset mode) its own balance
 */
function crossFigures(asset: string, balance: Decimal, fig: AccountFigures) {
  const usdt = asset === 'USDT';
  return {
    crossWalletBalance: f8(usdt ? fig.crossWalletBalance : balance),
    crossUnPnl: f8(usdt ? fig.crossUnPnl : 0),
    availableBalance: f8(usdt ? fig.availableBalance : balance),
    maxWithdrawAmount: f8(usdt ? maxWithdraw(fig) : balance),
  };
}

function accountV3(ctx: RouteContext) {
  const account = requireAccount(ctx);
  const fig = ctx.exchange.figures(account, ctx.now);
  const totalIM = fig.positionInitialMargin.plus(fig.openOrderInitialMargin);
  const marginBalance = fig.walletBalance.plus(fig.unrealizedPnl);
  return {
    totalInitialMargin: f8(totalIM),
    totalMaintMargin: f8(fig.maintMargin),
    totalWalletBalance: f8(fig.walletBalance),
    totalUnrealizedProfit: f8(fig.unrealizedPnl),
    totalMarginBalance: f8(marginBalance),
    totalPositionInitialMargin: f8(fig.positionInitialMargin),
    totalOpenOrderInitialMargin: f8(fig.openOrderInitialMargin),
    totalCrossWalletBalance: f8(fig.crossWalletBalance),
    totalCrossUnPnl: f8(fig.crossUnPnl),
    availableBalance: f8(fig.availableBalance),
    maxWithdrawAmount: f8(maxWithdraw(fig)),
    assets: [...account.balances.entries()].map(([asset, balance]) => {
      const usdt = asset === 'USDT';
      return {
        asset,
        walletBalance: f8(balance),
        unrealizedProfit: f8(usdt ? fig.unrealizedPnl : 0),
        marginBalance: f8(usdt ? marginBalance : balance),
        maintMargin: f8(usdt ? fig.maintMargin : 0),
        initialMargin: f8(usdt ? totalIM : 0),
        positionInitialMargin: f8(usdt ? fig.positionInitialMargin : 0),
        openOrderInitialMargin: f8(usdt ? fig.openOrderInitialMargin : 0),
        ...crossFigures(asset, balance, fig),
        updateTime: account.updateTime,
      };
    }),
    positions: [
      ...fig.positions
        .filter((pf) => !pf.position.amt.isZero())
        .map((pf) => ({
          symbol: pf.position.symbol,
          positionSide: pf.position.positionSide,
          positionAmt: fixed(pf.position.amt, pf.spec.quantityPrecision),
          unrealizedProfit: f8(pf.unrealizedPnl),
          isolatedMargin:
            pf.marginType === 'ISOLATED' ? f8(pf.position.isolatedWallet.plus(pf.unrealizedPnl)) : '0',
          notional: f8(pf.notional),
          isolatedWallet: pf.marginType === 'ISOLATED' ? f8(pf.position.isolatedWallet) : '0',
          initialMargin: f8(pf.initialMargin),
          maintMargin: f8(pf.maintMargin),
          updateTime: pf.position.updateTime,
        })),
      ...flatSymbolsWithOpenOrders(ctx, account, fig),
    ],
  };
}

/** v3 lists "only symbols with position or open orders": a flat row for each symbol that only has orders */
function flatSymbolsWithOpenOrders(
  ctx: RouteContext,
  account: ReturnType<typeof requireAccount>,
  fig: ReturnType<RouteContext['exchange']['figures']>,
) {
  const held = new Set(
    fig.positions.filter((pf) => !pf.position.amt.isZero()).map((pf) => pf.position.symbol),
  );
  const symbols = new Set(ctx.exchange.openOrders(account).map((o) => o.symbol));
  return [...symbols]
    .filter((s) => !held.has(s))
    .map((symbol) => ({
      symbol,
      positionSide: account.dualSidePosition ? 'LONG' : 'BOTH',
      positionAmt: '0',
      unrealizedProfit: f8(0),
      isolatedMargin: '0',
      notional: f8(0),
      isolatedWallet: '0',
      initialMargin: f8(fig.openOrderMarginBySymbol.get(symbol) ?? 0),
      maintMargin: f8(0),
      updateTime: account.updateTime,
    }));
}

function balances(ctx: RouteContext) {
  const account = requireAccount(ctx);
  const fig = ctx.exchange.figures(account, ctx.now);
  const alias = `Sim${account.id.toString().padStart(6, '0')}`;
  return [...account.balances.entries()].map(([asset, balance]) => ({
    accountAlias: alias,
    asset,
    balance: f8(balance),
    ...crossFigures(asset, balance, fig),
    marginAvailable: true,
    updateTime: account.updateTime,
  }));
}

function brackets(ctx: RouteContext) {
  const list = marketsParam(ctx).map((m) => ({
    symbol: m.spec.symbol,
    brackets: m.spec.brackets.map((b) => ({
      bracket: b.bracket,
      initialLeverage: b.initialLeverage,
      notionalCap: b.notionalCap,
      notionalFloor: b.notionalFloor,
      maintMarginRatio: b.maintMarginRatio,
      cum: b.cum,
    })),
  }));
  // Binance answers an array even for one symbol in practice; the docs show an object, clients accept both
  return list;
}

/**
 * GET /fapi/v1/adlQuantile: per symbol with a position, the quantile of each side. One-way mode and isolated hedge
 * positions answer LONG, SHORT and BOTH; cross hedge positions answer "HEDGE" (a sign) instead of BOTH, and one
 * value for both sides when both are open (here the higher of the two)
 */
function adlQuantile(ctx: RouteContext) {
  const account = requireAccount(ctx);
  const symbol = optionalSymbol(ctx);
  const quantiles = ctx.exchange.adlQuantiles(account);
  const symbols = [
    ...new Set([...account.positions.values()].filter((p) => !p.amt.isZero()).map((p) => p.symbol)),
  ];
  return symbols
    .filter((s) => !symbol || s === symbol)
    .map((s) => {
      const q = (side: string) => quantiles.get(`${s}:${side}`) ?? 0;
      const crossHedge = account.dualSidePosition && ctx.exchange.config(account, s).marginType === 'CROSSED';
      if (!crossHedge)
        return { symbol: s, adlQuantile: { LONG: q('LONG'), SHORT: q('SHORT'), BOTH: q('BOTH') } };
      const both = Math.max(q('LONG'), q('SHORT'));
      const open = (side: string) => account.positions.get(`${s}:${side}`)?.amt.isZero() === false;
      const shared = open('LONG') && open('SHORT');
      return {
        symbol: s,
        adlQuantile: { LONG: shared ? both : q('LONG'), SHORT: shared ? both : q('SHORT'), HEDGE: 0 },
      };
    });
}

/**
 * An account-wide switch Binance reads and sets at one path: GET answers `{ [name]: on }` (weight 30), POST sets it
 * from the mandatory boolean parameter `name` (weight 1)
 */
function switchRoutes(
  path: string,
  name: string,
  read: (account: Account) => boolean,
  write: (exchange: Exchange, account: Account, on: boolean) => void,
): Route[] {
  return [
    {
      method: 'GET',
      path,
      security: 'SIGNED',
      weight: 30,
      handler: (ctx) => ({ [name]: read(requireAccount(ctx)) }),
    },
    {
      method: 'POST',
      path,
      security: 'SIGNED',
      weight: 1,
      handler: (ctx) => {
        write(ctx.exchange, requireAccount(ctx), ctx.params.requiredBool(name));
        return { code: 200, msg: 'success' };
      },
    },
  ];
}

export const accountRoutes: Route[] = [
  { method: 'GET', path: '/fapi/v3/account', security: 'SIGNED', weight: 5, handler: accountV3 },
  { method: 'GET', path: '/fapi/v3/balance', security: 'SIGNED', weight: 5, handler: balances },
  { method: 'GET', path: '/fapi/v2/balance', security: 'SIGNED', weight: 5, handler: balances },
  { method: 'GET', path: '/fapi/v3/positionRisk', security: 'SIGNED', weight: 5, handler: positionRisk },
  { method: 'GET', path: '/fapi/v1/leverageBracket', security: 'SIGNED', weight: 1, handler: brackets },
  { method: 'GET', path: '/fapi/v1/adlQuantile', security: 'SIGNED', weight: 5, handler: adlQuantile },
  {
    method: 'GET',
    path: '/fapi/v1/commissionRate',
    security: 'SIGNED',
    weight: 20,
    handler: (ctx) => {
      const account = requireAccount(ctx);
      const symbol = marketParam(ctx).spec.symbol;
      return {
        symbol,
        makerCommissionRate: plain(account.makerRate),
        takerCommissionRate: plain(account.takerRate),
        rpiCommissionRate: '0',
      };
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/symbolConfig',
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const account = requireAccount(ctx);
      return marketsParam(ctx).map((m) => {
        const cfg = ctx.exchange.config(account, m.spec.symbol);
        const cap = m.spec.brackets.filter((b) => b.initialLeverage >= cfg.leverage).pop()?.notionalCap ?? 0;
        return {
          symbol: m.spec.symbol,
          marginType: cfg.marginType,
          isAutoAddMargin: false,
          leverage: cfg.leverage,
          maxNotionalValue: String(cap),
        };
      });
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/accountConfig',
    security: 'SIGNED',
    weight: 5,
    handler: (ctx) => {
      const account = requireAccount(ctx);
      return {
        feeTier: 0,
        canTrade: true,
        canDeposit: true,
        canWithdraw: account.permissions.enableWithdrawals,
        dualSidePosition: account.dualSidePosition,
        updateTime: account.updateTime,
        multiAssetsMargin: false,
        tradeGroupId: -1,
      };
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/multiAssetsMargin',
    security: 'SIGNED',
    weight: 30,
    handler: () => ({ multiAssetsMargin: false }),
  },
  ...switchRoutes(
    '/fapi/v1/feeBurn',
    'feeBurn',
    (account) => account.feeBurn,
    (exchange, account, on) => exchange.setFeeBurn(account, on),
  ),
  ...switchRoutes(
    '/fapi/v1/positionSide/dual',
    'dualSidePosition',
    (account) => account.dualSidePosition,
    (exchange, account, on) => exchange.setDualSide(account, on),
  ),
  {
    method: 'POST',
    path: '/fapi/v1/leverage',
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const symbol = marketParam(ctx).spec.symbol;
      const raw = ctx.params.required('leverage');
      const leverage = Number(raw);
      if (!/^\d+$/.test(raw)) throw errors.invalidLeverage(raw);
      const r = ctx.exchange.setLeverage(requireAccount(ctx), symbol, leverage);
      return { leverage: r.leverage, maxNotionalValue: String(r.maxNotionalValue), symbol };
    },
  },
  {
    method: 'POST',
    path: '/fapi/v1/marginType',
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const symbol = marketParam(ctx).spec.symbol;
      const raw = ctx.params.required('marginType').toUpperCase();
      if (raw !== 'ISOLATED' && raw !== 'CROSSED') throw errors.invalidParam('Invalid marginType.');
      ctx.exchange.setMarginType(requireAccount(ctx), symbol, raw);
      return { code: 200, msg: 'success' };
    },
  },
  {
    method: 'POST',
    path: '/fapi/v1/positionMargin',
    security: 'SIGNED',
    weight: 1,
    handler: (ctx) => {
      const account = requireAccount(ctx);
      const symbol = marketParam(ctx).spec.symbol;
      const rawAmount = ctx.params.required('amount');
      if (!/^\d+(\.\d+)?$/.test(rawAmount) || Number(rawAmount) <= 0) {
        throw errors.invalidParam('Invalid amount.');
      }
      const type = ctx.params.required('type');
      if (type !== '1' && type !== '2') throw errors.invalidParam('Invalid type.');
      const side = (ctx.params.get('positionSide') ?? 'BOTH').toUpperCase();
      if (side !== 'BOTH' && side !== 'LONG' && side !== 'SHORT') throw errors.invalidPositionSide();
      if ((side === 'BOTH') === account.dualSidePosition) throw errors.positionSideMismatch();
      ctx.exchange.changePositionMargin(
        account,
        symbol,
        side,
        new Decimal(rawAmount),
        type === '1' ? 'add' : 'reduce',
      );
      return {
        amount: Number(rawAmount),
        code: 200,
        msg: 'Successfully modify position margin.',
        type: Number(type),
      };
    },
  },
  {
    method: 'GET',
    path: '/fapi/v1/income',
    security: 'SIGNED',
    weight: 30,
    handler: (ctx) => {
      const account = requireAccount(ctx);
      const symbol = ctx.params.get('symbol');
      const type = ctx.params.get('incomeType');
      const start = ctx.params.int('startTime');
      const end = ctx.params.int('endTime');
      const limit = ctx.params.limit(100, 1000);
      // Without a window Binance returns the last 7 days
      const from = start ?? (end !== undefined ? end - 7 * 86_400_000 : ctx.now - 7 * 86_400_000);
      const to = end ?? ctx.now;
      return account.income
        .filter((i) => (!symbol || i.symbol === symbol) && (!type || i.incomeType === type))
        .filter((i) => i.time >= from && i.time <= to)
        .slice(0, limit)
        .map((i) => ({
          symbol: i.symbol,
          incomeType: i.incomeType,
          income: f8(i.income),
          asset: i.asset,
          info: i.info,
          time: i.time,
          tranId: i.tranId,
          tradeId: i.tradeId,
        }));
    },
  },
  {
    method: 'GET',
    path: '/sapi/v1/account/apiRestrictions',
    security: 'SIGNED_WALLET',
    weight: 1,
    handler: (ctx) => {
      const account = requireAccount(ctx);
      return {
        ...account.permissions,
        enablePortfolioMarginTrading: false,
        createTime: account.createTime,
        tradingAuthorityExpirationTime: account.createTime + 90 * 86_400_000,
      };
    },
  },
];
