import { usdt } from './ledger';
import { config, type ExchangeState, openAlgoOrders, openOrders } from './state';
import type { Account, AlgoOrder, Order, Position } from './types';

/** The plain-number view of an account that the per-second loop reads */
export interface Screen {
  version: number;
  open: Array<{ order: Order; price: number }>;
  algos: AlgoOrder[];
  usdt: number;
  legs: Array<{ position: Position; amt: number; entry: number; isolatedWallet?: number }>;
}

/**
 * Plain-number view of what the per-second loop looks at, rebuilt only after something changed: converting
 * decimals every simulated second would make an 8-hour jump take seconds
 */
export function screen(s: ExchangeState, account: Account): Screen {
  const cached = s.screens.get(account);
  if (cached && cached.version === s.version) return cached;
  const fresh: Screen = {
    version: s.version,
    open: openOrders(account).map((order) => ({ order, price: order.price.toNumber() })),
    algos: openAlgoOrders(account),
    usdt: usdt(account).toNumber(),
    legs: [...account.positions.values()]
      .filter((p) => !p.amt.isZero())
      .map((p) => ({
        position: p,
        amt: p.amt.toNumber(),
        entry: p.entryPrice.toNumber(),
        isolatedWallet:
          config(account, p.symbol).marginType === 'ISOLATED' ? p.isolatedWallet.toNumber() : undefined,
      })),
  };
  s.screens.set(account, fresh);
  return fresh;
}
