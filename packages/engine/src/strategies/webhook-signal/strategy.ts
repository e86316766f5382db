import type { OrderPort } from '../../broker/order-port';
import type { Fill, OrderSide, OrderView } from '../../broker/orders';
import { strategyType } from '../../strategy/registry';
import {
  INTERFACE_VERSION,
  type Strategy,
  type StrategyContext,
  type TradeSignal,
} from '../../strategy/strategy';
import { closePosition, placePositionExits } from '../shared/position-exits';
import { entryPlan, qtyForEquityFraction } from '../shared/position-sizing';
import { type WebhookSignalParams, WebhookSignalParamsSchema } from './params';

/** Tags of the exits placed at an entry's fill (replaced at every entry fill, canceled when flat) */
const EXIT_TAGS: readonly string[] = ['sl', 'tp'];

/**
 * Follows the signals an alert posts to the bot's webhook: a buy goes long (closing a short first), a sell goes
 * short (closing a long first), a close flattens. An entry is sized from the budget unless the signal names a
 * quantity, at market unless it names a price; optional stop-loss and take-profit are placed once an entry fills.
 * Its bars never trade, so a backtest of it has no trade.
 */
class WebhookSignal implements Strategy {
  private started = false;

  constructor(private readonly p: WebhookSignalParams) {}

  onBar(ctx: StrategyContext): void {
    this.start(ctx.broker);
  }

  onSignal(signal: TradeSignal, ctx: StrategyContext): void {
    const broker = ctx.broker;
    // A signal before the first bar (a bot that takes one while starting) still trades at the bot's leverage
    this.start(broker);
    if (signal.action === 'close') {
      // Resting entries go too: a close asks for no position, now or later
      broker.cancelAll();
      closePosition(broker);
      return;
    }
    const dir = signal.action === 'buy' ? 1 : -1;
    const side: OrderSide = dir > 0 ? 'buy' : 'sell';
    const pos = broker.positionQty;
    const allowed = this.p.side === 'both' || this.p.side === (dir > 0 ? 'long' : 'short');
    if (Math.sign(pos) === dir) {
      // Already on the signal's side: only an explicit quantity adds to it (a repeated alert does not double it)
      if (signal.quantity !== undefined && allowed) this.enter(signal, side, ctx);
      return;
    }
    // The alert fired again before its entry filled (a live market order on its way): the orders already out
    // stand. Cancelling them could race their fill and open the position twice
    if (signal.quantity === undefined && pendingMarketEntry(broker, side)) return;
    // The latest signal replaces what rests: the other side's exits and entries, a limit entry not reached yet
    broker.cancelAll();
    closePosition(broker);
    if (allowed) this.enter(signal, side, ctx);
  }

  onFill(fill: Fill, ctx: StrategyContext): void {
    const broker = ctx.broker;
    if (fill.positionAfter === 0) {
      // The signal's own close: the signal canceled what rested before it, and what it placed after the close
      // (a reversal's entry) must stand. Any other flat (a stop, a take-profit, a liquidation): nothing is left
      // to manage, as in signal-rules
      if (fill.tag === 'exit') cancelTagged(broker, EXIT_TAGS);
      else broker.cancelAll();
      return;
    }
    if (fill.tag !== 'entry') return;
    const { stopLossPct, takeProfitPct } = this.p;
    if (stopLossPct === 0 && takeProfitPct === 0) return;
    // An added entry moves the average entry: the exits are placed again from it, the earlier ones canceled
    cancelTagged(broker, EXIT_TAGS);
    placePositionExits(broker, this.p);
  }

  /** Sets the leverage once, at the first bar or signal (the broker allows it only while flat) */
  private start(broker: OrderPort): void {
    if (this.started) return;
    this.started = true;
    if (broker.leverage !== this.p.leverage) broker.setLeverage(this.p.leverage);
  }

  /** An entry on `side`: the signal's quantity, else a share of equity; at the signal's price, else at market */
  private enter(signal: TradeSignal, side: OrderSide, ctx: StrategyContext): void {
    const broker = ctx.broker;
    const qty =
      signal.quantity !== undefined
        ? broker.roundQty(signal.quantity)
        : qtyForEquityFraction(broker, ctx.price, this.p.positionFraction);
    // Less than one lot: nothing to send (a live bot stops on an order the lot rounds to nothing)
    if (!(qty > 0)) return;
    if (signal.price === undefined) broker.submit({ side, type: 'market', quantity: qty, tag: 'entry' });
    else
      broker.submit({
        side,
        type: 'limit',
        price: broker.roundPrice(signal.price),
        quantity: qty,
        tag: 'entry',
      });
  }
}

/** True when a market entry on `side` is on its way (in flight, or sent and not filled yet) */
function pendingMarketEntry(broker: OrderPort, side: OrderSide): boolean {
  const pending = (o: OrderView) => o.side === side && o.type === 'market' && o.tag === 'entry';
  return broker.inFlightOrders.some(pending) || broker.openOrders.some(pending);
}

/** Cancels the in-flight and open orders carrying one of `tags` (ids first: a cancel changes the lists) */
function cancelTagged(broker: OrderPort, tags: readonly string[]): void {
  const ids = [...broker.inFlightOrders, ...broker.openOrders]
    .filter((o) => tags.includes(o.tag))
    .map((o) => o.id);
  for (const id of ids) broker.cancel(id);
}

export const webhookSignalStrategy = strategyType({
  id: 'webhook-signal',
  name: 'Webhook signals',
  description:
    'Trades the buy, sell and close signals an alert posts to its webhook (TradingView and the like), sized from the budget unless the signal says how much',
  interfaceVersion: INTERFACE_VERSION,
  params: WebhookSignalParamsSchema,
  takesSignals: true,
  warmupBars: () => 1,
  positionSide: (p) => p.side,
  // Both sides: the plan checks the long entry (the same size as a short one at the same price)
  plannedOrders: (p, market) => entryPlan(p.side, p.positionFraction, market),
  create: (p) => new WebhookSignal(p),
});
