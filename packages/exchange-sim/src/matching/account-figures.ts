import { errors } from '../common/errors';
import { Decimal } from '../common/format';
import { maxNotionalAtLeverage, type SymbolSpec } from '../common/symbols';
import { type AccountUpdate, accountUpdatePosition } from './events';
import { usdt } from './ledger';
import { initialMargin, maintMargin, notional, unrealizedPnl } from './margin';
import { closableBy, config, type ExchangeState, marketOf, openOrders, positionAmt } from './state';
import type { Account, MarginType, Position, PositionSide, Side } from './types';

/**
 * An account's margin picture (wallet, unrealized PnL, position and open-order margin, available balance), the
 * margin check of a new order, and the ACCOUNT_UPDATE built from the picture
 */

export interface PositionFigures {
  position: Position;
  spec: SymbolSpec;
  marginType: MarginType;
  leverage: number;
  mark: Decimal;
  notional: Decimal;
  unrealizedPnl: Decimal;
  initialMargin: Decimal;
  maintMargin: Decimal;
}

/** An account's margin picture at one moment, in USDT */
export interface AccountFigures {
  walletBalance: Decimal;
  crossWalletBalance: Decimal;
  crossUnPnl: Decimal;
  unrealizedPnl: Decimal;
  positionInitialMargin: Decimal;
  openOrderInitialMargin: Decimal;
  openOrderMarginBySymbol: Map<string, Decimal>;
  maintMargin: Decimal;
  availableBalance: Decimal;
  positions: PositionFigures[];
}

/** The account's margin picture at the mark prices of `t` (default now) */
export function figures(s: ExchangeState, account: Account, t = s.clock.now()): AccountFigures {
  const wallet = usdt(account);
  let isolatedWallets = new Decimal(0);
  let crossUnPnl = new Decimal(0);
  let unrealized = new Decimal(0);
  let crossPositionIM = new Decimal(0);
  let positionIM = new Decimal(0);
  let maint = new Decimal(0);
  const positions: PositionFigures[] = [];
  for (const p of account.positions.values()) {
    const market = marketOf(s, p.symbol);
    const cfg = config(account, p.symbol);
    const mark = new Decimal(market.markPrice(t).toFixed(8));
    const upnl = unrealizedPnl(p, mark);
    const im = initialMargin(p, mark, cfg.leverage);
    const mm = maintMargin(p, mark, market.spec.brackets);
    positions.push({
      position: p,
      spec: market.spec,
      marginType: cfg.marginType,
      leverage: cfg.leverage,
      mark,
      notional: notional(p, mark),
      unrealizedPnl: upnl,
      initialMargin: im,
      maintMargin: mm,
    });
    unrealized = unrealized.plus(upnl);
    positionIM = positionIM.plus(im);
    maint = maint.plus(mm);
    if (cfg.marginType === 'ISOLATED') {
      isolatedWallets = isolatedWallets.plus(p.isolatedWallet);
    } else {
      crossUnPnl = crossUnPnl.plus(upnl);
      crossPositionIM = crossPositionIM.plus(im);
    }
  }
  const bySymbol = new Map<string, Decimal>();
  let openOrderIM = new Decimal(0);
  for (const symbol of new Set(openOrders(account).map((o) => o.symbol))) {
    const m = openOrderMargin(account, symbol, config(account, symbol).leverage);
    bySymbol.set(symbol, m);
    openOrderIM = openOrderIM.plus(m);
  }
  const crossWallet = wallet.minus(isolatedWallets);
  return {
    walletBalance: wallet,
    crossWalletBalance: crossWallet,
    crossUnPnl,
    unrealizedPnl: unrealized,
    positionInitialMargin: positionIM,
    openOrderInitialMargin: openOrderIM,
    openOrderMarginBySymbol: bySymbol,
    maintMargin: maint,
    availableBalance: crossWallet.plus(crossUnPnl).minus(crossPositionIM).minus(openOrderIM),
    positions,
  };
}

/**
 * Initial margin held by open orders of one symbol: per position side, the part of the resting buys (sells) that
 * would grow the position beyond what it closes, at the order prices; one-way mode holds the larger side
 */
export function openOrderMargin(
  account: Account,
  symbol: string,
  leverage: number,
  extra?: { side: Side; qty: Decimal; price: Decimal },
): Decimal {
  const orders = openOrders(account, symbol).map((o) => ({
    side: o.side,
    positionSide: o.positionSide,
    reduceOnly: o.reduceOnly,
    qty: o.origQty.minus(o.executedQty),
    price: o.price,
  }));
  if (extra) {
    orders.push({
      side: extra.side,
      positionSide: account.dualSidePosition ? (extra.side === 'BUY' ? 'LONG' : 'SHORT') : 'BOTH',
      reduceOnly: false,
      qty: extra.qty,
      price: extra.price,
    });
  }
  const sideMargin = (side: Side, positionSide: PositionSide): Decimal => {
    const list = orders.filter((o) => o.side === side && o.positionSide === positionSide && !o.reduceOnly);
    if (list.length === 0) return new Decimal(0);
    const amt = positionAmt(account, symbol, positionSide);
    let closable = closableBy(side, amt);
    let total = new Decimal(0);
    for (const o of list.sort((a, b) => (side === 'BUY' ? b.price.cmp(a.price) : a.price.cmp(b.price)))) {
      const closes = Decimal.min(closable, o.qty);
      closable = closable.minus(closes);
      total = total.plus(o.qty.minus(closes).mul(o.price));
    }
    return total.div(leverage);
  };
  if (account.dualSidePosition) return sideMargin('BUY', 'LONG').plus(sideMargin('SELL', 'SHORT'));
  return Decimal.max(sideMargin('BUY', 'BOTH'), sideMargin('SELL', 'BOTH'));
}

/**
 * Refuses an order that would take the position past the leverage's notional cap (-2027) or need more margin than
 * is available (-2019): the open-order margin it adds plus its opening loss against the mark
 */
export function checkMargin(
  s: ExchangeState,
  account: Account,
  spec: SymbolSpec,
  leverage: number,
  input: { side: Side; quantity: Decimal },
  price: Decimal,
  mark: Decimal,
  posAmt: Decimal,
  now: number,
): void {
  const signed = input.side === 'BUY' ? input.quantity : input.quantity.neg();
  const after = posAmt.plus(signed);
  if (after.abs().mul(price).gt(maxNotionalAtLeverage(spec, leverage))) throw errors.maxPosition();
  const fig = figures(s, account, now);
  const before = fig.openOrderMarginBySymbol.get(spec.symbol) ?? new Decimal(0);
  const withOrder = openOrderMargin(account, spec.symbol, leverage, {
    side: input.side,
    qty: input.quantity,
    price,
  });
  const direction = input.side === 'BUY' ? 1 : -1;
  // Opening loss: buying above the mark (or selling below) is a loss the moment the order fills
  const openLoss = input.quantity.mul(Decimal.max(0, price.minus(mark).mul(direction)));
  const required = withOrder.minus(before).plus(openLoss);
  if (required.gt(fig.availableBalance)) throw errors.marginInsufficient();
}

/** Break-even price: entry moved by the taker fee of closing */
export function breakEven(account: Account, p: Position): Decimal {
  const dir = p.amt.isNeg() ? -1 : 1;
  return p.entryPrice.mul(new Decimal(1).plus(account.takerRate.mul(dir)));
}

/**
 * ACCOUNT_UPDATE with the USDT balance (and those of `assets`, e.g. BNB after a fee paid in BNB) and the given
 * positions, at the marks of `t`
 */
export function accountUpdate(
  s: ExchangeState,
  account: Account,
  reason: string,
  positions: Position[],
  t: number,
  assets: readonly string[] = [],
): AccountUpdate {
  const fig = figures(s, account, t);
  return {
    e: 'ACCOUNT_UPDATE',
    E: t,
    T: t,
    a: {
      m: reason,
      B: [
        {
          a: 'USDT',
          wb: fig.walletBalance.toFixed(8),
          cw: fig.crossWalletBalance.toFixed(8),
          bc: '0',
        },
        ...assets.map((a) => {
          const held = (account.balances.get(a) ?? new Decimal(0)).toFixed(8);
          return { a, wb: held, cw: held, bc: '0' };
        }),
      ],
      P: positions.map((p) => {
        const spec = marketOf(s, p.symbol).spec;
        const mark = marketOf(s, p.symbol).markPrice(t);
        return accountUpdatePosition(
          p,
          unrealizedPnl(p, mark),
          config(account, p.symbol).marginType,
          breakEven(account, p),
          spec,
        );
      }),
    },
  };
}
