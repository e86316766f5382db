import {
  OrderEventsQuerySchema,
  OrderEventsResponseSchema,
  OrderIntentsQuerySchema,
  OrderIntentsResponseSchema,
  ReconcileRequestSchema,
  ReconcileResponseSchema,
} from '@kestrel/contracts';
import type { StoredIntent } from '../../../../trading/orders/order-intent-repository';
import { callerId, ERRORS, ok, signedInRoutes, tradingAccountOf } from '../../../route-schemas';

/** The contract's view of an intent: what only the server needs is left out */
function view(i: StoredIntent) {
  return {
    id: i.id,
    clientOrderId: i.clientOrderId,
    source: i.source,
    botId: i.botId,
    symbol: i.symbol,
    kind: i.kind,
    request: i.request,
    state: i.state,
    order: i.order,
    reason: i.reason,
    attempts: i.attempts,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}

/** The order manager's record: intents (unresolved ones show as "status unknown"), its events, reconciliation */
export default signedInRoutes('orders', async (app, route) => {
  const orders = app.orderManager;

  app.get(
    '/intents',
    route({
      summary:
        'Orders Kestrel recorded before sending, newest first: unresolved (default: outcome not known yet) or all',
      querystring: OrderIntentsQuerySchema,
      response: { 200: OrderIntentsResponseSchema, ...ERRORS.input },
    }),
    async (request) =>
      ok(
        (await orders.list(callerId(request), request.query.filter, request.query.limit)).map(view),
        'Order intents',
      ),
  );

  app.get(
    '/events',
    route({
      summary:
        'What the order manager did or found on its own (resolved unknown orders, foreign orders and positions), newest first',
      querystring: OrderEventsQuerySchema,
      response: { 200: OrderEventsResponseSchema, ...ERRORS.input },
    }),
    async (request) => ok(await orders.events(callerId(request), request.query.limit), 'Order events'),
  );

  app.post(
    '/reconcile',
    route({
      summary:
        'Compare Kestrel’s orders with the exchange (one symbol or all): resolve unknown ones, update placed ones, ' +
        'report orders and positions Kestrel did not place (left alone)',
      body: ReconcileRequestSchema,
      response: { 200: ReconcileResponseSchema, ...ERRORS.exchange },
    }),
    async (request) =>
      ok(await orders.reconcile(await tradingAccountOf(request), request.body?.symbol), 'Reconciled'),
  );
});
