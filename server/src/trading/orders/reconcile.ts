import type { ReconcileReport } from '@kestrel/contracts';
import type { TradingAccount } from '../../core/environment/trading-account';
import { isOpenPosition } from '../../core/exchange/account-figures';
import type { Order } from '../../core/exchange/exchange-adapter';
import { viaExchange } from '../../core/exchange/exchange-http-error';
import type { IntentResolver } from './intent-resolver';
import { describe, type OrderContext, UNRESOLVED } from './order-context';
import { FINAL_ORDER_STATUSES } from './order-intent-repository';

/**
 * Reconciliation: a user's intents brought to the exchange's true state (unresolved ones looked up, placed ones
 * that may still work re-read), and what no intent owns reported (an event the user reads, once per finding),
 * never touched. Run before a bot starts, before each live bar, and at server start for every user with
 * unresolved or open intents
 */
export class Reconciler {
  constructor(
    private readonly ctx: OrderContext,
    private readonly resolver: IntentResolver,
  ) {}

  /**
   * Brings the account's intents (optionally of one symbol) to the exchange's true state: unresolved ones are looked
   * up, placed ones that may still work are re-read; open orders and positions no intent owns are reported (an
   * event the user reads, once per finding) and left alone. A bot calls it before it starts
   */
  async reconcile(account: TradingAccount, symbol?: string): Promise<ReconcileReport> {
    const { ctx } = this;
    const { userId } = account;
    const keys = await this.ctx.keys(account);
    const env = keys.environment;
    const report: ReconcileReport = {
      resolved: 0,
      unresolved: 0,
      synced: 0,
      foreignOrders: [],
      foreignPositions: [],
    };
    for (const intent of await ctx.repo.unresolved(ctx.db, {
      userId,
      symbol,
      environment: env,
    })) {
      const after = await this.resolver.resolveWith(intent, keys);
      if (UNRESOLVED.includes(after.state)) report.unresolved++;
      else report.resolved++;
    }
    const [open, positions] = await viaExchange(() =>
      Promise.all([ctx.exchange.openOrders(keys, symbol), ctx.exchange.positions(keys, symbol)]),
    );
    const openById = new Map(open.map((o) => [o.clientOrderId, o]));
    for (const intent of await ctx.repo.openPlaced(ctx.db, {
      userId,
      symbol,
      environment: env,
    })) {
      let now: Order | undefined = openById.get(intent.clientOrderId);
      if (!now) {
        now = await viaExchange(() =>
          ctx.exchange.findOrder(keys, intent.symbol, intent.clientOrderId, intent.kind),
        );
      }
      if (!now) continue;
      const before = intent.order;
      if (before && before.status === now.status && before.executedQuantity === now.executedQuantity)
        continue;
      const updated = await ctx.repo.update(ctx.db, intent.id, { order: now, at: ctx.now() });
      report.synced++;
      if (updated && FINAL_ORDER_STATUSES.includes(now.status)) {
        await ctx.event(
          updated,
          'synced',
          `Order ${describe(intent.request)} is ${now.status} on the exchange`,
        );
      }
    }
    const known = await ctx.repo.knownClientIds(
      ctx.db,
      userId,
      open.map((o) => o.clientOrderId),
    );
    for (const o of open) {
      if (known.has(o.clientOrderId)) continue;
      report.foreignOrders.push({ symbol: o.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId });
      await ctx.repo.insertEvent(ctx.db, {
        userId,
        intentId: null,
        kind: 'foreign_order',
        message:
          `Open order ${o.orderId} (${o.side} ${o.quantity} ${o.symbol} ${o.type}${Number(o.price) ? ` @ ${o.price}` : ''}) ` +
          'was not placed by Kestrel; it is left as it is',
        data: { symbol: o.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId, status: o.status },
        dedupeKey: `foreign_order:${o.kind}:${o.orderId}`,
        at: ctx.now(),
      });
    }
    const ours = await ctx.repo.placedSymbols(ctx.db, userId);
    for (const p of positions.filter(isOpenPosition)) {
      if (ours.has(p.symbol)) continue;
      report.foreignPositions.push({ symbol: p.symbol, positionSide: p.positionSide, amount: p.amount });
      await ctx.repo.insertEvent(ctx.db, {
        userId,
        intentId: null,
        kind: 'foreign_position',
        message: `Position ${p.amount} ${p.symbol} (${p.positionSide}) was not opened by Kestrel; it is left as it is`,
        data: { symbol: p.symbol, positionSide: p.positionSide, amount: p.amount },
        dedupeKey: `foreign_position:${p.symbol}:${p.positionSide}:${p.amount}`,
        at: ctx.now(),
      });
    }
    return report;
  }
}
