import { Decimal } from '../common/format';
import { type Bracket, bracketFor } from '../common/symbols';
import type { Position } from './types';

/** Signed notional at the mark price */
export function notional(p: Position, mark: Decimal.Value): Decimal {
  return p.amt.mul(mark);
}

/** uPnL = positionAmt × (mark − entry), amt signed */
export function unrealizedPnl(p: Position, mark: Decimal.Value): Decimal {
  return p.amt.mul(new Decimal(mark).minus(p.entryPrice));
}

export function initialMargin(p: Position, mark: Decimal.Value, leverage: number): Decimal {
  return notional(p, mark).abs().div(leverage);
}

/** MM = |notional| × maintMarginRatio − cum, with the bracket of that notional */
export function maintMargin(p: Position, mark: Decimal.Value, brackets: readonly Bracket[]): Decimal {
  const n = notional(p, mark).abs();
  if (n.isZero()) return new Decimal(0);
  const b = bracketFor(brackets, n);
  return n.mul(b.maintMarginRatio).minus(b.cum);
}

/** The positions of one symbol that the formula looks at, with the wallet and the other positions' figures */
export interface LiquidationInput {
  /** crossWalletBalance for cross, isolatedWallet for isolated */
  walletBalance: Decimal.Value;
  /** Maintenance margin of all other cross positions (0 for isolated) */
  otherMaintMargin: Decimal.Value;
  /** Unrealised PnL of all other cross positions (0 for isolated) */
  otherUnrealizedPnl: Decimal.Value;
  both?: { amt: Decimal.Value; entryPrice: Decimal.Value };
  long?: { amt: Decimal.Value; entryPrice: Decimal.Value };
  short?: { amt: Decimal.Value; entryPrice: Decimal.Value };
  brackets: readonly Bracket[];
}

/**
 * Binance's liquidation price (USDⓈ-M FAQ):
 * LP = (WB − TMM1 + UPNL1 + cumB + cumL + cumS − Side·PosB·EPB − PosL·EPL + PosS·EPS)
 *      / (PosB·MMRB + PosL·MMRL + PosS·MMRS − Side·PosB − PosL + PosS)
 * Brackets are chosen by the notional at the liquidation price, so the price is recomputed until the bracket is
 * stable. Returns 0 when there is no position or the price would be negative (Binance shows "0").
 */
export function liquidationPrice(input: LiquidationInput): Decimal {
  const both = input.both ? new Decimal(input.both.amt) : new Decimal(0);
  const side = both.isNegative() ? -1 : 1;
  const posB = both.abs();
  const epB = new Decimal(input.both?.entryPrice ?? 0);
  const posL = new Decimal(input.long?.amt ?? 0).abs();
  const epL = new Decimal(input.long?.entryPrice ?? 0);
  const posS = new Decimal(input.short?.amt ?? 0).abs();
  const epS = new Decimal(input.short?.entryPrice ?? 0);
  if (posB.isZero() && posL.isZero() && posS.isZero()) return new Decimal(0);

  // Start from the brackets at entry notional, then follow the bracket the liquidation price lands in
  let price = Decimal.max(epB, epL, epS);
  let result = new Decimal(0);
  for (let i = 0; i < 8; i++) {
    const bB = bracketFor(input.brackets, posB.mul(price));
    const bL = bracketFor(input.brackets, posL.mul(price));
    const bS = bracketFor(input.brackets, posS.mul(price));
    const cumB = posB.isZero() ? 0 : bB.cum;
    const cumL = posL.isZero() ? 0 : bL.cum;
    const cumS = posS.isZero() ? 0 : bS.cum;
    const numerator = new Decimal(input.walletBalance)
      .minus(input.otherMaintMargin)
      .plus(input.otherUnrealizedPnl)
      .plus(cumB)
      .plus(cumL)
      .plus(cumS)
      .minus(posB.mul(epB).mul(side))
      .minus(posL.mul(epL))
      .plus(posS.mul(epS));
    const denominator = posB
      .mul(bB.maintMarginRatio)
      .plus(posL.mul(bL.maintMarginRatio))
      .plus(posS.mul(bS.maintMarginRatio))
      .minus(posB.mul(side))
      .minus(posL)
      .plus(posS);
    if (denominator.isZero()) return new Decimal(0);
    result = numerator.div(denominator);
    if (result.lte(0)) return new Decimal(0);
    if (result.eq(price)) break;
    const same =
      bracketFor(input.brackets, posB.mul(result)).bracket === bB.bracket &&
      bracketFor(input.brackets, posL.mul(result)).bracket === bL.bracket &&
      bracketFor(input.brackets, posS.mul(result)).bracket === bS.bracket;
    price = result;
    if (same) break;
  }
  return result;
}
