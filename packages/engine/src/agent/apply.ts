import type { OrderPort } from '../broker/order-port';
import type { OrderView } from '../broker/orders';
import { EngineInputError } from '../errors';
import type { AgentDecision } from './types';

export interface ApplyOptions {
  /** Price the size is computed at (the closed bar's close) */
  price: number;
  /** Money the agent may commit (the bot's budget; equity in a backtest) */
  budget: number;
  leverage: number;
  /** False when the port cannot hold a resting stop order: the decision's stop_hit exit is then the stop */
  stopOrders?: boolean;
}

/** What applying a decision did: the orders submitted (possibly none) and, when none, why */
export interface AppliedDecision {
  orders: OrderView[];
  /** Why nothing was sent for an entry or exit (null when orders were sent or the decision was a hold) */
  skipped: 'already_in_position' | 'flat' | 'size_below_step' | null;
}

export const AGENT_ORDER_TAGS = { entry: 'agent-entry', stop: 'agent-stop', exit: 'agent-exit' } as const;

/**
 * The one place a decision becomes orders, used by the backtest strategy and the server's runtime alike:
 * - entry (only while flat): a market order of budget × sizeFraction × leverage / price, rounded down to the
 *   port's step, then a reduce-only stop-market at the decision's stop distance when the port takes stop orders;
 * - exit: every resting order cancelled and a reduce-only market order for the whole position;
 * - hold: nothing.
 */
export function applyDecision(
  port: OrderPort,
  decision: AgentDecision,
  options: ApplyOptions,
): AppliedDecision {
  const { price, budget, leverage } = options;
  if (!(price > 0)) throw new EngineInputError(`applyDecision: price must be positive, got ${price}`);
  if (!(budget >= 0)) throw new EngineInputError(`applyDecision: budget must be zero or more, got ${budget}`);
  if (!(Number.isInteger(leverage) && leverage >= 1))
    throw new EngineInputError(
      `applyDecision: leverage must be a whole number of at least 1, got ${leverage}`,
    );
  const pos = port.positionQty;
  switch (decision.action) {
    case 'hold':
      return { orders: [], skipped: null };
    case 'exit': {
      if (pos === 0) return { orders: [], skipped: 'flat' };
      port.cancelAll();
      const order = port.submit({
        side: pos > 0 ? 'sell' : 'buy',
        type: 'market',
        quantity: Math.abs(pos),
        reduceOnly: true,
        tag: AGENT_ORDER_TAGS.exit,
      });
      return { orders: [order], skipped: null };
    }
    case 'enter_long':
    case 'enter_short': {
      if (pos !== 0) return { orders: [], skipped: 'already_in_position' };
      const qty = port.roundQty((budget * decision.sizeFraction * leverage) / price);
      if (!(qty > 0)) return { orders: [], skipped: 'size_below_step' };
      if (port.leverage !== leverage) port.setLeverage(leverage);
      const long = decision.action === 'enter_long';
      // Stale resting orders of an earlier position (a stop that expired) must not act on the new one
      if (port.openOrders.length > 0 || port.inFlightOrders.length > 0) port.cancelAll();
      const orders = [
        port.submit({
          side: long ? 'buy' : 'sell',
          type: 'market',
          quantity: qty,
          tag: AGENT_ORDER_TAGS.entry,
        }),
      ];
      if (decision.stopPct !== null && decision.stopPct > 0 && options.stopOrders !== false) {
        const trigger = port.roundPrice(price * (long ? 1 - decision.stopPct : 1 + decision.stopPct));
        if (trigger > 0) {
          orders.push(
            port.submit({
              side: long ? 'sell' : 'buy',
              type: 'stop-market',
              quantity: qty,
              triggerPrice: trigger,
              reduceOnly: true,
              tag: AGENT_ORDER_TAGS.stop,
            }),
          );
        }
      }
      return { orders, skipped: null };
    }
  }
}

/** Stop price of a position entered at `entryPrice` by a decision with `stopPct` (null: no stop) */
export function stopPriceFor(entryPrice: number, qty: number, stopPct: number | null): number | null {
  if (stopPct === null || !(stopPct > 0) || qty === 0) return null;
  return qty > 0 ? entryPrice * (1 - stopPct) : entryPrice * (1 + stopPct);
}
