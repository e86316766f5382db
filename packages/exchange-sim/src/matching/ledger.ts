import { Decimal } from '../common/format';
import type { ExchangeState } from './state';
import type { Account, Income, IncomeType } from './types';

/** The account's USDT wallet balance (isolated wallets included) */
export function usdt(account: Account): Decimal {
  return account.balances.get('USDT') ?? new Decimal(0);
}

/** Moves the USDT wallet by `delta` */
export function addUsdt(s: ExchangeState, account: Account, delta: Decimal): void {
  s.version++;
  account.balances.set('USDT', usdt(account).plus(delta));
}

/** Books an entry of the income history (`GET /fapi/v1/income`); zero amounts are not booked */
export function income(
  s: ExchangeState,
  account: Account,
  symbol: string,
  type: IncomeType,
  amount: Decimal,
  info: string,
  asset = 'USDT',
  tradeId = '',
  time = s.clock.now(),
): void {
  if (amount.isZero()) return;
  const entry: Income = {
    tranId: s.nextTranId++,
    symbol,
    incomeType: type,
    income: amount,
    asset,
    info,
    time,
    tradeId,
  };
  account.income.push(entry);
}
