import { errors } from '../common/errors';
import { Decimal } from '../common/format';
import { maxLeverage, maxNotionalAtLeverage } from '../common/symbols';
import { accountUpdate, figures } from './account-figures';
import { config, type ExchangeState, emit, marketOf, openOrders, positionKey } from './state';
import type { Account, MarginType, PositionSide } from './types';

/** Per-symbol leverage (capped by the notional brackets) and margin type, and the account's position mode */

/**
 * Sets a symbol's leverage (-4028 outside 1 to the top bracket's, -2027 when an open position exceeds the new cap);
 * pushes ACCOUNT_CONFIG_UPDATE
 */
export function setLeverage(
  s: ExchangeState,
  account: Account,
  symbol: string,
  leverage: number,
): { leverage: number; maxNotionalValue: number } {
  const spec = marketOf(s, symbol).spec;
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > maxLeverage(spec)) {
    throw errors.invalidLeverage(String(leverage));
  }
  const cap = maxNotionalAtLeverage(spec, leverage);
  for (const p of account.positions.values()) {
    if (p.symbol === symbol && p.amt.abs().mul(marketOf(s, symbol).markPrice(s.clock.now())).gt(cap)) {
      throw errors.maxPosition();
    }
  }
  config(account, symbol).leverage = leverage;
  const now = s.clock.now();
  emit(s, account, () => ({
    e: 'ACCOUNT_CONFIG_UPDATE',
    E: now,
    T: now,
    ac: { s: symbol, l: leverage },
  }));
  return { leverage, maxNotionalValue: cap };
}

/** Switches CROSSED/ISOLATED; refused while the symbol has open orders or a position */
export function setMarginType(
  s: ExchangeState,
  account: Account,
  symbol: string,
  marginType: MarginType,
): void {
  marketOf(s, symbol);
  const cfg = config(account, symbol);
  if (cfg.marginType === marginType) throw errors.noNeedMarginType();
  if (openOrders(account, symbol).length > 0) throw errors.marginTypeOpenOrders();
  if ([...account.positions.values()].some((p) => p.symbol === symbol && !p.amt.isZero())) {
    throw errors.marginTypePosition();
  }
  cfg.marginType = marginType;
}

/**
 * Moves margin into (`add`) or out of (`reduce`) an isolated position (`POST /fapi/v1/positionMargin`): the wallet
 * is unchanged, only the split between the cross wallet and the position's isolated wallet moves. Refused for a
 * cross or flat position (-4049), beyond the available balance (-4050) or below the position's initial margin at
 * the mark (-4051); pushes ACCOUNT_UPDATE (MARGIN_TYPE_CHANGE, as Binance reports it)
 */
export function changePositionMargin(
  s: ExchangeState,
  account: Account,
  symbol: string,
  positionSide: PositionSide,
  amount: Decimal,
  direction: 'add' | 'reduce',
): void {
  marketOf(s, symbol);
  const position = account.positions.get(positionKey(symbol, positionSide));
  if (config(account, symbol).marginType !== 'ISOLATED' || !position || position.amt.isZero()) {
    throw errors.isolatedOnly();
  }
  const now = s.clock.now();
  const fig = figures(s, account, now);
  if (direction === 'add') {
    if (amount.gt(fig.availableBalance)) throw errors.crossBalanceInsufficient();
    position.isolatedWallet = position.isolatedWallet.plus(amount);
  } else {
    const pf = fig.positions.find((x) => x.position === position);
    const upnl = pf?.unrealizedPnl ?? new Decimal(0);
    const im = pf?.initialMargin ?? new Decimal(0);
    const removable = Decimal.max(0, position.isolatedWallet.plus(Decimal.min(upnl, 0)).minus(im));
    if (amount.gt(removable)) throw errors.isolatedBalanceInsufficient();
    position.isolatedWallet = position.isolatedWallet.minus(amount);
  }
  emit(s, account, () => accountUpdate(s, account, 'MARGIN_TYPE_CHANGE', [position], now));
}

/** Switches one-way/hedge mode; refused while the account has open orders or positions */
export function setDualSide(account: Account, dual: boolean): void {
  if (account.dualSidePosition === dual) throw errors.noNeedPositionSide();
  if (openOrders(account).length > 0) throw errors.positionSideOpenOrders();
  if ([...account.positions.values()].some((p) => !p.amt.isZero())) throw errors.positionSidePosition();
  account.dualSidePosition = dual;
}
