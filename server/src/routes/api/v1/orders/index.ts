import {
  ErrorResponseSchema,
  OrderEventsQuerySchema,
  OrderEventsResponseSchema,
  OrderIntentsQuerySchema,
  OrderIntentsResponseSchema,
  ReconcileRequestSchema,
  ReconcileResponseSchema,
} from '@kestrel/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { StoredIntent } from '../../../../trading/orders/order-intent-repository';
import { BEARER, callerId, EXCHANGE_ERRORS } from '../../../route-schemas';

const tags = ['orders'];
const security = BEARER;
const user = callerId;

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
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const orders = app.orderManager;

  app.get(
    '/intents',
    {
      schema: {
        tags,
        security,
        summary:
          'Orders Kestrel recorded before sending, newest first: unresolved (default: outcome not known yet) or all',
        querystring: OrderIntentsQuerySchema,
        response: { 200: OrderIntentsResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: (await orders.list(user(request), request.query.filter, request.query.limit)).map(view),
      message: 'Order intents',
    }),
  );

  app.get(
    '/events',
    {
      schema: {
        tags,
        security,
        summary:
          'What the order manager did or found on its own (resolved unknown orders, foreign orders and positions), newest first',
        querystring: OrderEventsQuerySchema,
        response: { 200: OrderEventsResponseSchema, 400: ErrorResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await orders.events(user(request), request.query.limit),
      message: 'Order events',
    }),
  );

  app.post(
    '/reconcile',
    {
      schema: {
        tags,
        security,
        summary:
          'Compare Kestrel’s orders with the exchange (one symbol or all): resolve unknown ones, update placed ones, ' +
          'report orders and positions Kestrel did not place (left alone)',
        body: ReconcileRequestSchema,
        response: { 200: ReconcileResponseSchema, ...EXCHANGE_ERRORS },
      },
    },
    async (request) => ({
      success: true as const,
      data: await orders.reconcile(user(request), request.body?.symbol),
      message: 'Reconciled',
    }),
  );
};

export default routes;
