import {
  CancelOrderRequestSchema,
  CreateOrderRequestSchema,
  EntryProtectionsResponseSchema,
  ErrorResponseSchema,
  FuturesAccountInfoResponseSchema,
  FuturesOrderResponseSchema,
  FuturesOrdersResponseSchema,
  FuturesPositionsResponseSchema,
  FuturesTradesResponseSchema,
  HistoryQuerySchema,
  LeverageResponseSchema,
  MarginTypeResponseSchema,
  OptionalSymbolQuerySchema,
  OrderIdParamsSchema,
  OrderPreviewResponseSchema,
  PlaceOrderRequestSchema,
  PnlSummaryResponseSchema,
  PositionMarginRequestSchema,
  PositionMarginResponseSchema,
  RiskAssessmentResponseSchema,
  SetLeverageRequestSchema,
  SetMarginTypeRequestSchema,
  SymbolConfigResponseSchema,
  SymbolInfoResponseSchema,
  SymbolParamsSchema,
  SymbolQuerySchema,
} from '@kestrel/contracts';
import { ERRORS, ok, signedInRoutes, tradingAccountOf } from '../../route-schemas';
import { requireStepUp } from '../../step-up';

const errors = {
  ...ERRORS.exchange,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
  /** An account limit refused the order or leverage (`RISK_LIMIT`) */
  422: ErrorResponseSchema,
};

/** The spec's futures calls (§7) on the signed-in user's connected Binance account */
export default signedInRoutes('futures', async (app, route) => {
  const futures = app.futuresService;
  // An order, cancel or leverage change makes the user's kept dashboard and risk figures stale: forgotten before
  // the answer leaves, so the page's refetch after it reads the account afresh
  app.addHook('onSend', async (request) => {
    // (A preview changes nothing)
    const previews = request.routeOptions.url?.endsWith('/orders/preview') === true;
    if (request.method !== 'GET' && !previews && request.auth) app.accountReads.changed(request.auth.userId);
  });

  app.get(
    '/account/info',
    route({
      summary: 'Balances, margin and open positions of the connected account',
      response: { 200: FuturesAccountInfoResponseSchema, ...errors },
    }),
    async (request) => ok(await futures.accountInfo(await tradingAccountOf(request)), 'Account loaded'),
  );

  app.get(
    '/positions/active',
    route({
      summary: 'Open positions',
      response: { 200: FuturesPositionsResponseSchema, ...errors },
    }),
    async (request) => ok(await futures.openPositions(await tradingAccountOf(request)), 'Open positions'),
  );

  app.get(
    '/positions/:symbol',
    route({
      summary: 'Positions of one symbol (both sides in hedge mode), open or flat',
      params: SymbolParamsSchema,
      response: { 200: FuturesPositionsResponseSchema, ...errors },
    }),
    async (request) =>
      ok(
        await futures.positions(await tradingAccountOf(request), request.params.symbol),
        `Positions of ${request.params.symbol}`,
      ),
  );

  app.get(
    '/orders/active',
    route({
      summary:
        'Open orders and waiting conditional orders (stops, take-profits, trailing stops), optionally of one symbol',
      querystring: OptionalSymbolQuerySchema,
      response: { 200: FuturesOrdersResponseSchema, ...errors },
    }),
    async (request) =>
      ok(await futures.listedOrders(await tradingAccountOf(request), request.query.symbol), 'Open orders'),
  );

  app.post(
    '/orders/create',
    route({
      summary:
        'Place an order (LIMIT, MARKET) or a conditional order (STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET, ' +
        'TRAILING_STOP_MARKET); recorded before it is sent and never sent twice: the same clientOrderId (or ' +
        'Idempotency-Key header) again answers the first outcome; a lost answer is 503 ORDER_STATUS_UNKNOWN while ' +
        'the server resolves it by its client order id. A LIMIT or MARKET entry may carry `protection`: a ' +
        'take-profit and/or stop-loss the server places (close-position, at the mark price) once the entry fills',
      body: PlaceOrderRequestSchema,
      response: { 201: FuturesOrderResponseSchema, ...errors },
    }),
    async (request, reply) => {
      // One key per submit: the body's clientOrderId, else this header; a repeat answers the first outcome
      const header = request.headers['idempotency-key'];
      const order = await futures.placeOrder(await tradingAccountOf(request), request.body, {
        idempotencyKey: typeof header === 'string' ? header : undefined,
      });
      const message =
        order.kind === 'conditional'
          ? 'Conditional order placed'
          : request.body.protection
            ? 'Order placed; its TP/SL goes on once it fills'
            : 'Order placed';
      return reply.code(201).send(ok(order, message));
    },
  );

  app.post(
    '/orders/preview',
    route({
      summary:
        'What a LIMIT or MARKET order would cost (notional, margin at the leverage) and the estimated liquidation ' +
        'price of the position it leaves, before it is sent; nothing is placed or recorded',
      body: CreateOrderRequestSchema,
      response: { 200: OrderPreviewResponseSchema, ...errors },
    }),
    async (request) =>
      ok(await futures.previewOrder(await tradingAccountOf(request), request.body), 'Order preview'),
  );

  app.get(
    '/orders/protections',
    route({
      summary:
        'TP/SL attached to entries: the ones waiting for their entry to fill first, then the latest placed, ' +
        'failed (the position is not protected: detail says why) or canceled (the entry ended without a fill)',
      response: { 200: EntryProtectionsResponseSchema, ...errors },
    }),
    async (request) =>
      ok(await futures.entryProtections(await tradingAccountOf(request)), 'TP/SL attached to entries'),
  );

  app.post(
    '/orders/:id/cancel',
    route({
      summary:
        'Cancel an open order or a waiting conditional order by its exchange id (kind from the order; without it ' +
        'a plain order is tried first)',
      params: OrderIdParamsSchema,
      body: CancelOrderRequestSchema,
      response: { 200: FuturesOrderResponseSchema, ...errors },
    }),
    async (request) =>
      ok(
        await futures.cancelOrder(await tradingAccountOf(request), request.body.symbol, {
          orderId: request.params.id,
          kind: request.body.kind,
        }),
        'Order canceled',
      ),
  );

  app.post(
    '/leverage/set',
    {
      ...route({
        summary: 'Set the leverage of a symbol',
        description:
          'Raising it above the symbol’s current leverage needs the password given in the last 5 minutes (403 ' +
          'STEP_UP_REQUIRED); lowering it never does.',
        body: SetLeverageRequestSchema,
        response: { 200: LeverageResponseSchema, ...errors, 403: ErrorResponseSchema },
      }),
      preHandler: async (request) => {
        const { symbol, leverage } = request.body as { symbol: string; leverage: number };
        const now = await futures.symbolConfig(await tradingAccountOf(request), symbol);
        if (leverage > now.leverage) await requireStepUp(request);
      },
    },
    async (request) => {
      const data = await futures.setLeverage(
        await tradingAccountOf(request),
        request.body.symbol,
        request.body.leverage,
      );
      return ok(data, `Leverage of ${data.symbol} set to ${data.leverage}x`);
    },
  );

  app.post(
    '/margin-type',
    route({
      summary:
        'Cross or isolated margin for a symbol (Binance allows the change only without open orders or a position ' +
        'on it); recorded among the order events',
      body: SetMarginTypeRequestSchema,
      response: { 200: MarginTypeResponseSchema, ...errors },
    }),
    async (request) => {
      const data = await futures.setMarginType(
        await tradingAccountOf(request),
        request.body.symbol,
        request.body.marginType,
      );
      return ok(data, `${data.symbol} uses ${data.marginType} margin`);
    },
  );

  app.post(
    '/positions/margin',
    {
      ...route({
        summary:
          'Add margin to an isolated position or remove some (USDT): more margin moves the liquidation price away; ' +
          'recorded among the order events',
        description:
          'Removing margin brings the liquidation closer: it needs the password given in the last 5 minutes (403 ' +
          'STEP_UP_REQUIRED); adding never does.',
        body: PositionMarginRequestSchema,
        response: { 200: PositionMarginResponseSchema, ...errors, 403: ErrorResponseSchema },
      }),
      preHandler: async (request) => {
        if ((request.body as { action: string }).action !== 'add') await requireStepUp(request);
      },
    },
    async (request) => {
      await futures.changePositionMargin(await tradingAccountOf(request), request.body);
      const { amount, symbol, action } = request.body;
      return ok(
        request.body,
        action === 'add'
          ? `${amount} USDT added to ${symbol}'s margin`
          : `${amount} USDT removed from ${symbol}'s margin`,
      );
    },
  );

  app.get(
    '/history/orders',
    route({
      summary:
        'Orders and conditional orders of the last 7 days, any status, newest first (limit default 100); without ' +
        'a symbol, of every symbol the account was active in',
      querystring: HistoryQuerySchema,
      response: { 200: FuturesOrdersResponseSchema, ...errors },
    }),
    async (request) => {
      const { symbol, limit } = request.query;
      const data = await futures.orderHistory(await tradingAccountOf(request), symbol, limit);
      return ok(data, `Order history of ${symbol ?? 'all symbols'}`);
    },
  );

  app.get(
    '/history/trades',
    route({
      summary:
        'Fills of the last 7 days, newest first (limit default 100); without a symbol, of every symbol the ' +
        'account was active in',
      querystring: HistoryQuerySchema,
      response: { 200: FuturesTradesResponseSchema, ...errors },
    }),
    async (request) => {
      const { symbol, limit } = request.query;
      const data = await futures.trades(await tradingAccountOf(request), symbol, limit);
      return ok(data, `Trades of ${symbol ?? 'all symbols'}`);
    },
  );

  app.get(
    '/symbols/info',
    route({
      summary: 'Trading rules of a symbol: tick size, step size, minimum notional, precisions',
      querystring: SymbolQuerySchema,
      response: { 200: SymbolInfoResponseSchema, ...errors },
    }),
    async (request) =>
      ok(
        await futures.symbolInfo(await tradingAccountOf(request), request.query.symbol),
        `Trading rules of ${request.query.symbol}`,
      ),
  );

  app.get(
    '/symbols/config',
    route({
      summary: "The account's margin type and leverage for a symbol, and the notional cap of that leverage",
      querystring: SymbolQuerySchema,
      response: { 200: SymbolConfigResponseSchema, ...errors },
    }),
    async (request) =>
      ok(
        await futures.symbolConfig(await tradingAccountOf(request), request.query.symbol),
        `How the account trades ${request.query.symbol}`,
      ),
  );

  app.get(
    '/pnl',
    route({
      summary: 'Realized PnL, fees and funding of the last 7 days, and unrealized PnL now',
      response: { 200: PnlSummaryResponseSchema, ...errors },
    }),
    async (request) => ok(await futures.pnl(await tradingAccountOf(request)), 'PnL of the last 7 days'),
  );

  app.get(
    '/risk/assessment',
    route({
      summary: 'Margin ratio, effective leverage and distance to liquidation of open positions',
      response: { 200: RiskAssessmentResponseSchema, ...errors },
    }),
    async (request) => {
      const data = await futures.risk(await tradingAccountOf(request));
      return ok(data, `Risk ${data.level}`);
    },
  );
});
