import {
  CancelOrderRequestSchema,
  CreateOrderRequestSchema,
  ErrorResponseSchema,
  FuturesAccountInfoResponseSchema,
  FuturesOrderResponseSchema,
  FuturesOrdersResponseSchema,
  FuturesPositionsResponseSchema,
  FuturesTradesResponseSchema,
  HistoryQuerySchema,
  LeverageResponseSchema,
  OptionalSymbolQuerySchema,
  OrderIdParamsSchema,
  PnlSummaryResponseSchema,
  RiskAssessmentResponseSchema,
  SetLeverageRequestSchema,
  SymbolInfoResponseSchema,
  SymbolParamsSchema,
  SymbolQuerySchema,
} from '@kestrel/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEARER, callerId, EXCHANGE_ERRORS } from '../../route-schemas';

const tags = ['futures'];
const security = BEARER;
const errors = {
  ...EXCHANGE_ERRORS,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  /** An account limit refused the order or leverage (`RISK_LIMIT`) */
  422: ErrorResponseSchema,
};
const user = callerId;

/** The spec's futures calls (§7) on the signed-in user's connected Binance account */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const futures = app.futuresService;
  // An order, cancel or leverage change makes the user's kept dashboard and risk figures stale: forgotten before
  // the answer leaves, so the page's refetch after it reads the account afresh
  app.addHook('onSend', async (request) => {
    if (request.method !== 'GET' && request.auth) app.accountReads.changed(request.auth.userId);
  });

  app.get(
    '/account/info',
    {
      schema: {
        tags,
        security,
        summary: 'Balances, margin and open positions of the connected account',
        response: { 200: FuturesAccountInfoResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await futures.accountInfo(user(request)),
      message: 'Account loaded',
    }),
  );

  app.get(
    '/positions/active',
    {
      schema: {
        tags,
        security,
        summary: 'Open positions',
        response: { 200: FuturesPositionsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await futures.openPositions(user(request)),
      message: 'Open positions',
    }),
  );

  app.get(
    '/positions/:symbol',
    {
      schema: {
        tags,
        security,
        summary: 'Positions of one symbol (both sides in hedge mode), open or flat',
        params: SymbolParamsSchema,
        response: { 200: FuturesPositionsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await futures.positions(user(request), request.params.symbol),
      message: `Positions of ${request.params.symbol}`,
    }),
  );

  app.get(
    '/orders/active',
    {
      schema: {
        tags,
        security,
        summary:
          'Open orders and waiting conditional orders (stops, take-profits, trailing stops), optionally of one symbol',
        querystring: OptionalSymbolQuerySchema,
        response: { 200: FuturesOrdersResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await futures.openOrders(user(request), request.query.symbol),
      message: 'Open orders',
    }),
  );

  app.post(
    '/orders/create',
    {
      schema: {
        tags,
        security,
        summary:
          'Place an order (LIMIT, MARKET) or a conditional order (STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET, ' +
          'TRAILING_STOP_MARKET); recorded before it is sent and never sent twice: the same clientOrderId (or ' +
          'Idempotency-Key header) again answers the first outcome; a lost answer is 503 ORDER_STATUS_UNKNOWN while ' +
          'the server resolves it by its client order id',
        body: CreateOrderRequestSchema,
        response: { 201: FuturesOrderResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      // One key per submit: the body's clientOrderId, else this header; a repeat answers the first outcome
      const header = request.headers['idempotency-key'];
      const order = await futures.placeOrder(user(request), request.body, {
        idempotencyKey: typeof header === 'string' ? header : undefined,
      });
      const message = order.kind === 'conditional' ? 'Conditional order placed' : 'Order placed';
      return reply.code(201).send({ success: true as const, data: order, message });
    },
  );

  app.post(
    '/orders/:id/cancel',
    {
      schema: {
        tags,
        security,
        summary:
          'Cancel an open order or a waiting conditional order by its exchange id (kind from the order; without it ' +
          'a plain order is tried first)',
        params: OrderIdParamsSchema,
        body: CancelOrderRequestSchema,
        response: { 200: FuturesOrderResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await futures.cancelOrder(user(request), request.body.symbol, {
        orderId: request.params.id,
        kind: request.body.kind,
      }),
      message: 'Order canceled',
    }),
  );

  app.post(
    '/leverage/set',
    {
      schema: {
        tags,
        security,
        summary: 'Set the leverage of a symbol',
        body: SetLeverageRequestSchema,
        response: { 200: LeverageResponseSchema, ...errors },
      },
    },
    async (request) => {
      const data = await futures.setLeverage(user(request), request.body.symbol, request.body.leverage);
      return { success: true as const, data, message: `Leverage of ${data.symbol} set to ${data.leverage}x` };
    },
  );

  app.get(
    '/history/orders',
    {
      schema: {
        tags,
        security,
        summary:
          'Orders and conditional orders of the last 7 days, any status, newest first (limit default 100); without ' +
          'a symbol, of every symbol the account was active in',
        querystring: HistoryQuerySchema,
        response: { 200: FuturesOrdersResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { symbol, limit } = request.query;
      const data = await futures.orderHistory(user(request), symbol, limit);
      return { success: true as const, data, message: `Order history of ${symbol ?? 'all symbols'}` };
    },
  );

  app.get(
    '/history/trades',
    {
      schema: {
        tags,
        security,
        summary:
          'Fills of the last 7 days, newest first (limit default 100); without a symbol, of every symbol the ' +
          'account was active in',
        querystring: HistoryQuerySchema,
        response: { 200: FuturesTradesResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { symbol, limit } = request.query;
      const data = await futures.trades(user(request), symbol, limit);
      return { success: true as const, data, message: `Trades of ${symbol ?? 'all symbols'}` };
    },
  );

  app.get(
    '/symbols/info',
    {
      schema: {
        tags,
        security,
        summary: 'Trading rules of a symbol: tick size, step size, minimum notional, precisions',
        querystring: SymbolQuerySchema,
        response: { 200: SymbolInfoResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await futures.symbolInfo(user(request), request.query.symbol),
      message: `Trading rules of ${request.query.symbol}`,
    }),
  );

  app.get(
    '/pnl',
    {
      schema: {
        tags,
        security,
        summary: 'Realized PnL, fees and funding of the last 7 days, and unrealized PnL now',
        response: { 200: PnlSummaryResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await futures.pnl(user(request)),
      message: 'PnL of the last 7 days',
    }),
  );

  app.get(
    '/risk/assessment',
    {
      schema: {
        tags,
        security,
        summary: 'Margin ratio, effective leverage and distance to liquidation of open positions',
        response: { 200: RiskAssessmentResponseSchema, ...errors },
      },
    },
    async (request) => {
      const data = await futures.risk(user(request));
      return { success: true as const, data, message: `Risk ${data.level}` };
    },
  );
};
export default routes;
