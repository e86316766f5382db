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
import { HttpError } from '../../../lib/http-error';
import { requireAuth } from '../../../plugins/app/auth';
import { pnlSummary, riskAssessment } from '../../../plugins/app/exchange/account-figures';
import type { ExchangeKeys, Position } from '../../../plugins/app/exchange/exchange-adapter';
import { viaExchange } from '../../../plugins/app/exchange/exchange-http-error';

const tags = ['futures'];
const security = [{ bearer: [] }];
const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  429: ErrorResponseSchema,
  503: ErrorResponseSchema,
};
const open = (p: Position) => Number(p.amount) !== 0;

/** The spec's futures calls (§7) on the signed-in user's connected Binance account */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);

  const keys = async (request: Parameters<typeof requireAuth>[0]): Promise<ExchangeKeys> => {
    const k = await app.credentialsService.keysFor(requireAuth(request).userId);
    return { apiKey: k.apiKey, secretKey: k.secretKey };
  };
  const adapter = () => app.exchangeAdapter;

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
    async (request) => {
      const k = await keys(request);
      // positionRisk, not the account's position list: only it carries mark and liquidation prices
      const [account, positions] = await viaExchange(() =>
        Promise.all([adapter().account(k), adapter().positions(k)]),
      );
      return {
        success: true as const,
        data: { ...account, positions: positions.filter(open) },
        message: 'Account loaded',
      };
    },
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
    async (request) => {
      const k = await keys(request);
      const positions = await viaExchange(() => adapter().positions(k));
      return { success: true as const, data: positions.filter(open), message: 'Open positions' };
    },
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
    async (request) => {
      const k = await keys(request);
      const data = await viaExchange(() => adapter().positions(k, request.params.symbol));
      return { success: true as const, data, message: `Positions of ${request.params.symbol}` };
    },
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
    async (request) => {
      const k = await keys(request);
      const data = await viaExchange(() => adapter().openOrders(k, request.query.symbol));
      return { success: true as const, data, message: 'Open orders' };
    },
  );

  app.post(
    '/orders/create',
    {
      schema: {
        tags,
        security,
        summary:
          'Place an order (LIMIT, MARKET) or a conditional order (STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET, ' +
          'TRAILING_STOP_MARKET); never sent twice (a lost answer is resolved by its client order id)',
        body: CreateOrderRequestSchema,
        response: { 201: FuturesOrderResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const k = await keys(request);
      const order = await viaExchange(() => adapter().placeOrder(k, request.body));
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
    async (request) => {
      const k = await keys(request);
      const order = await viaExchange(() =>
        adapter().cancelOrder(k, request.body.symbol, {
          orderId: request.params.id,
          kind: request.body.kind,
        }),
      );
      return { success: true as const, data: order, message: 'Order canceled' };
    },
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
      const k = await keys(request);
      const data = await viaExchange(() =>
        adapter().setLeverage(k, request.body.symbol, request.body.leverage),
      );
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
      const k = await keys(request);
      const data = await viaExchange(() => adapter().orderHistory(k, symbol, limit));
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
      const k = await keys(request);
      const data = await viaExchange(() => adapter().trades(k, symbol, limit));
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
    async (request) => {
      const { symbol } = request.query;
      const data = await viaExchange(() => adapter().symbolInfo(symbol));
      if (!data)
        throw new HttpError(404, 'SYMBOL_NOT_FOUND', `${symbol} is not a futures symbol of this exchange`);
      return { success: true as const, data, message: `Trading rules of ${symbol}` };
    },
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
    async (request) => {
      const k = await keys(request);
      // No range: Binance answers its own last 7 days (by its clock, which ours may not match yet)
      const [income, account] = await viaExchange(() =>
        Promise.all([adapter().income(k, { limit: 1000 }), adapter().account(k)]),
      );
      const to = Date.now() + adapter().clockOffsetMs;
      const from = to - 7 * 86_400_000;
      return {
        success: true as const,
        data: pnlSummary(income, account, { from, to }),
        message: 'PnL of the last 7 days',
      };
    },
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
      const k = await keys(request);
      const [account, positions] = await viaExchange(() =>
        Promise.all([adapter().account(k), adapter().positions(k)]),
      );
      const data = riskAssessment(account, positions);
      return { success: true as const, data, message: `Risk ${data.level}` };
    },
  );
};
export default routes;
