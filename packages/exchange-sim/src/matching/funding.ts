import { accountUpdate } from './account-figures';
import { addUsdt, income } from './ledger';
import { FUNDING_INTERVAL_MS } from './market';
import { config, type ExchangeState, emit, marketOf } from './state';
import type { Account, Position } from './types';

/** Funding every 8 hours: the fee each open position pays or receives, and the rate last settled per symbol */

/** Funding rate settled at the last funding time before `now` */
export function lastFunding(s: ExchangeState, symbol: string, now: number): { rate: number; time: number } {
  const time = Math.floor(now / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
  const known = s.lastFunding.get(symbol);
  if (known && known.time === time) return known;
  return { rate: marketOf(s, symbol).estimatedFundingRate(time), time };
}

/** Settles funding at a funding time: positive rates make longs pay shorts, fee = positionAmt × mark × rate */
export function settleFunding(s: ExchangeState, account: Account, t: number): void {
  const touched: Position[] = [];
  let anyIsolated = false;
  for (const p of account.positions.values()) {
    if (p.amt.isZero()) continue;
    const market = marketOf(s, p.symbol);
    const rate = market.estimatedFundingRate(t);
    s.lastFunding.set(p.symbol, { rate, time: t });
    // Positive rate: longs pay shorts. fee = positionAmt × mark × rate
    const fee = p.amt.mul(market.markPrice(t)).mul(rate);
    addUsdt(s, account, fee.neg());
    if (config(account, p.symbol).marginType === 'ISOLATED') {
      p.isolatedWallet = p.isolatedWallet.minus(fee);
      anyIsolated = true;
    }
    income(s, account, p.symbol, 'FUNDING_FEE', fee.neg(), 'FUNDING_FEE', 'USDT', '', t);
    touched.push(p);
  }
  if (touched.length === 0) return;
  // Cross funding sends only balances; isolated positions also send the position (its wallet moved)
  const isolated = anyIsolated
    ? touched.filter((p) => config(account, p.symbol).marginType === 'ISOLATED')
    : [];
  emit(s, account, () => accountUpdate(s, account, 'FUNDING_FEE', isolated, t));
}
