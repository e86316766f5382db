import { finish } from './execution';
import { type ExchangeState, marketOf, openOrders } from './state';
import type { Account } from './types';

/**
 * Binance's dead-man switch (`POST /fapi/v1/countdownCancelAll`): a client arms a countdown per symbol and keeps
 * calling it as a heartbeat; if it falls silent, every open order of the symbol is cancelled when the countdown ends.
 * Conditional (algo) orders are left alone: Binance runs them in a separate algo service that this switch does not
 * reach (an assumption, see CONTEXT), and a protective stop is what a trader wants to survive a dead client.
 * Deadlines are checked on each simulated second, so an order is cancelled at the first whole second at or after
 * the deadline.
 */

const key = (account: Account, symbol: string) => `${account.id}:${symbol}`;

/** Arms (or re-arms, replacing the deadline) the countdown of a symbol; 0 disarms it */
export function setCountdown(s: ExchangeState, account: Account, symbol: string, countdownMs: number): void {
  marketOf(s, symbol);
  if (countdownMs === 0) s.countdowns.delete(key(account, symbol));
  else s.countdowns.set(key(account, symbol), { account, symbol, deadline: s.clock.now() + countdownMs });
}

/** The armed deadline of a symbol (ms since epoch), if any */
export function countdownDeadline(s: ExchangeState, account: Account, symbol: string): number | undefined {
  return s.countdowns.get(key(account, symbol))?.deadline;
}

/** Fires every countdown whose deadline is at or before `t`: its symbol's open orders are cancelled, once */
export function fireCountdowns(s: ExchangeState, t: number): void {
  for (const [k, c] of s.countdowns) {
    if (c.deadline > t) continue;
    s.countdowns.delete(k);
    for (const o of openOrders(c.account, c.symbol)) finish(s, c.account, o, 'CANCELED', t);
  }
}
