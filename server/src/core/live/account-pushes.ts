import { RESYNC_WILDCARD } from '@kestrel/contracts';
import type {
  AccountUpdateEvent,
  AlgoOrderUpdateEvent,
  OrderUpdateEvent,
} from '../exchange/exchange-streams';
import type { LiveEvent } from '../socket/socket-bus';

/**
 * A push to the account's owner with the identity of the exchange event it came from: the bus drops the copies
 * other instances following the same account publish
 */
export interface AccountPush {
  event: LiveEvent;
  id: string;
}

export function orderPush(o: OrderUpdateEvent): AccountPush {
  return {
    event: {
      kind: 'order',
      data: {
        symbol: o.symbol,
        orderId: o.orderId,
        clientOrderId: o.clientOrderId,
        status: o.status,
        executionType: o.executionType,
        side: o.side,
        type: o.orderType,
        price: o.price,
        averagePrice: o.averagePrice,
        quantity: o.quantity,
        executedQuantity: o.executedQuantity,
        time: o.time,
      },
    },
    id: `order:${o.orderId}:${o.executionType}:${o.executedQuantity}:${o.time}`,
  };
}

/** Conditional orders are orders to the pages too: the notice says `algo: true` and carries the algo id */
export function algoOrderPush(a: AlgoOrderUpdateEvent): AccountPush {
  return {
    event: {
      kind: 'order',
      data: {
        symbol: a.symbol,
        orderId: a.algoId,
        clientOrderId: a.clientAlgoId,
        status: a.status,
        algo: true,
        side: a.side,
        type: a.orderType,
        triggerPrice: a.triggerPrice,
        quantity: a.quantity,
        ...(a.triggeredOrderId ? { triggeredOrderId: a.triggeredOrderId } : {}),
        time: a.time,
      },
    },
    id: `algo:${a.algoId}:${a.status}:${a.time}`,
  };
}

const positionKey = (symbol: string, side: string) => `${symbol}|${side}`;

/**
 * The balance and position pushes of an account update. `amounts` (position amount per symbol and side, kept
 * across updates of one stream) and `openSymbols` (symbols with an open position) are brought up to date; the
 * answer says whether `openSymbols` changed, so the user's sockets watch the new set
 */
export function accountPushes(
  a: AccountUpdateEvent,
  amounts: Map<string, string>,
  openSymbols: Set<string>,
): { pushes: AccountPush[]; watchChanged: boolean } {
  const pushes: AccountPush[] = [];
  for (const b of a.balances) {
    pushes.push({
      event: {
        kind: 'balance',
        data: {
          asset: b.asset,
          walletBalance: b.walletBalance,
          crossWalletBalance: b.crossWalletBalance,
          reason: a.reason,
          time: a.time,
        },
      },
      id: `balance:${b.asset}:${a.reason}:${a.time}`,
    });
  }
  let watchChanged = false;
  for (const p of a.positions) {
    amounts.set(positionKey(p.symbol, p.positionSide), p.amount);
    const open = [...amounts].some(([k, amt]) => k.startsWith(`${p.symbol}|`) && Number(amt) !== 0);
    if (open !== openSymbols.has(p.symbol)) {
      if (open) openSymbols.add(p.symbol);
      else openSymbols.delete(p.symbol);
      watchChanged = true;
    }
    pushes.push({
      event: {
        kind: 'position',
        data: {
          symbol: p.symbol,
          positionSide: p.positionSide,
          amount: p.amount,
          entryPrice: p.entryPrice,
          reason: a.reason,
          time: a.time,
        },
      },
      id: `position:${p.symbol}:${p.positionSide}:${a.reason}:${a.time}`,
    });
  }
  return { pushes, watchChanged };
}

/** Events may have been missed while the stream was down: the pages refetch balances and positions */
export function resyncPushes(time: number): AccountPush[] {
  return [
    {
      event: { kind: 'balance', data: { asset: RESYNC_WILDCARD, reason: 'RESYNC', time } },
      id: `resync-balance:${time}`,
    },
    {
      event: { kind: 'position', data: { symbol: RESYNC_WILDCARD, reason: 'RESYNC', time } },
      id: `resync-position:${time}`,
    },
  ];
}
