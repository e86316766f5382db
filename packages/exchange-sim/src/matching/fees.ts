import { Decimal } from '../common/format';
import type { ExchangeState } from './state';
import type { Account } from './types';

/** Binance's discount on futures fees paid in BNB */
export const BNB_FEE_DISCOUNT = new Decimal('0.1');
/** The market BNB is priced on */
export const BNB_PRICE_SYMBOL = 'BNBUSDT';

/** A fill's commission: what is charged, in which asset */
export interface Commission {
  amount: Decimal;
  asset: 'USDT' | 'BNB';
}

/**
 * The commission of a fill worth `quote` USDT at `rate`. With the account's BNB fee discount on (`feeBurn`), Binance
 * takes the fee in BNB, 10 % off, converted at BNB's price, as long as the futures wallet's BNB covers it; otherwise
 * (discount off, not enough BNB) in USDT. Here BNB's price is the last price of the BNBUSDT market at `t`; a
 * simulator that does not list BNBUSDT cannot price BNB and charges USDT
 */
export function commissionOf(
  s: ExchangeState,
  account: Account,
  quote: Decimal,
  rate: Decimal,
  t: number,
): Commission {
  const usdt = quote.mul(rate);
  if (!account.feeBurn || usdt.isZero()) return { amount: usdt, asset: 'USDT' };
  const bnbMarket = s.markets.get(BNB_PRICE_SYMBOL);
  if (!bnbMarket) return { amount: usdt, asset: 'USDT' };
  const bnb = usdt
    .mul(new Decimal(1).minus(BNB_FEE_DISCOUNT))
    .div(bnbMarket.lastPrice(t))
    .toDecimalPlaces(8, Decimal.ROUND_UP);
  const held = account.balances.get('BNB') ?? new Decimal(0);
  if (held.lt(bnb)) return { amount: usdt, asset: 'USDT' };
  return { amount: bnb, asset: 'BNB' };
}
