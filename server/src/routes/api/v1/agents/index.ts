import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import {
  BotEventsQuerySchema,
  BotEventsResponseSchema,
  BotIdParamsSchema,
  BotListResponseSchema,
  BotPerformanceResponseSchema,
  BotPlanRequestSchema,
  BotPlanResponseSchema,
  BotResponseSchema,
  BotStatusResponseSchema,
  BotSuggestionQuerySchema,
  BotSuggestionResponseSchema,
  CloneBotRequestSchema,
  CreateBotRequestSchema,
  StartBotRequestSchema,
  UpdateBotRequestSchema,
} from '@kestrel/contracts/bots';
import { callerId, ERRORS, ok, okMessage, signedInRoutes, tradingAccountOf } from '../../../route-schemas';
import { requireStepUp } from '../../../step-up';

const errors = { ...ERRORS.notFound, 409: ErrorResponseSchema };
/** Routes that read the exchange's symbol rules */
const exchangeErrors = { ...errors, ...ERRORS.exchange };

/**
 * The spec's bot calls (`/api/v1/agents/*`, issue 17): the signed-in user's bots, their settings, start and stop,
 * status and log. A bot's events are also pushed live as `notifications/bot`. Another user's bot is a 404, exactly
 * like an unknown id.
 */
export default signedInRoutes('agents', async (app, route) => {
  const bots = app.botService;

  app.get(
    '/',
    route({
      summary: "The user's bots and agents, oldest first",
      response: { 200: BotListResponseSchema, ...ERRORS.signedOut },
    }),
    async (request) => ok(await bots.list(callerId(request)), 'Bots'),
  );

  app.post(
    '/',
    route({
      summary: 'Create a bot (stopped)',
      description:
        'The parameters are checked with the strategy’s own schema (GET /api/v1/backtests/strategies lists ' +
        'them; the bot’s leverage replaces the strategy’s leverage parameter), the symbol against the ' +
        'exchange’s list; a 400 names the field and the rule. A live bot on mainnet needs `confirmLive: true`.',
      body: CreateBotRequestSchema,
      response: { 201: BotResponseSchema, ...exchangeErrors },
    }),
    async (request, reply) => {
      const data = await bots.create(await tradingAccountOf(request), request.body);
      return reply.code(201).send(ok(data, 'Bot created'));
    },
  );

  app.get(
    '/suggestion',
    route({
      summary: 'Starting values for a new bot from the market now',
      description:
        'The strategy’s parameters drawn at the symbol’s price (a grid’s range as wide as the last 24 h moved) ' +
        'with every size the exchange would refuse raised to the least it takes, and the budget its orders need ' +
        '(at least the one asked): what the create form starts from. Nothing is saved',
      querystring: BotSuggestionQuerySchema,
      response: { 200: BotSuggestionResponseSchema, ...exchangeErrors },
    }),
    async (request) =>
      ok(await app.botPlans.suggest(await tradingAccountOf(request), request.query), 'Bot suggestion'),
  );

  app.post(
    '/plan',
    route({
      summary: 'The orders a bot with these settings would place now, before it is saved',
      description:
        "Its strategy's orders at the symbol's last price (a grid's levels, a DCA bot's base and safety orders, a " +
        "signal strategy's entry), rounded to the symbol's step as the exchange takes them; the USDT they hold per " +
        'side and the margin at the leverage (the larger side, as Binance reserves it); for a grid, one round trip ' +
        "between neighbouring levels after both makers' fees at the regular tier; and what the exchange would " +
        'refuse, each with the smallest value that works (a save is refused for the same). Nothing is sent.',
      body: BotPlanRequestSchema,
      response: { 200: BotPlanResponseSchema, ...exchangeErrors, 400: ErrorResponseSchema },
    }),
    async (request) =>
      ok(await app.botPlans.plan(await tradingAccountOf(request), request.body), 'Order plan'),
  );

  app.get(
    '/:id',
    route({
      summary: 'One bot',
      params: BotIdParamsSchema,
      response: { 200: BotResponseSchema, ...errors },
    }),
    async (request) => ok(await bots.get(callerId(request), request.params.id), 'Bot'),
  );

  app.patch(
    '/:id',
    {
      ...route({
        summary: 'Change a bot’s settings (a running one: its name at once, the rest by a restart)',
        description:
          'A stopped, errored or paused bot takes any change. A running bot takes a new name at once; new ' +
          'parameters, leverage, budget or risk limits restart it (its orders canceled, the settings saved, then ' +
          'started again from the price now) only with `restart: true`, else 409 RESTART_NEEDED naming them. Its ' +
          'strategy, symbol, interval and mode change only once it is stopped or paused (409 BOT_ACTIVE). ' +
          'Changing a live bot (or making a bot live) needs the password within 5 minutes, a new name alone ' +
          'excepted.',
        params: BotIdParamsSchema,
        body: UpdateBotRequestSchema,
        response: { 200: BotResponseSchema, ...exchangeErrors, 403: ErrorResponseSchema },
      }),
      // A live bot's settings are money's: changing them (a restart included) asks the password, as a start does
      preHandler: async (request) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        const renameOnly = Object.keys(body).every((k) => k === 'name' || k === 'restart');
        const bot = await bots.get(callerId(request), (request.params as { id: string }).id);
        const restartsLive = body.restart === true && bot.mode === 'live' && bot.state === 'running';
        if (restartsLive || (!renameOnly && (bot.mode === 'live' || body.mode === 'live')))
          await requireStepUp(request);
      },
    },
    async (request) =>
      ok(await bots.update(callerId(request), request.params.id, request.body), 'Bot updated'),
  );

  app.delete(
    '/:id',
    route({
      summary: 'Delete a stopped bot and its log (a running bot must be stopped first: 409)',
      params: BotIdParamsSchema,
      response: { 200: MessageResponseSchema, ...errors },
    }),
    async (request) => {
      await bots.delete(callerId(request), request.params.id);
      return okMessage('Bot deleted');
    },
  );

  app.post(
    '/:id/clone',
    {
      ...route({
        summary: 'A stopped copy of the bot, named “<name> (copy)” unless a name is given',
        description:
          'Cloning a live bot needs the password within 5 minutes (a second live bot is new exposure).',
        params: BotIdParamsSchema,
        body: CloneBotRequestSchema.optional(),
        response: { 201: BotResponseSchema, ...exchangeErrors, 403: ErrorResponseSchema },
      }),
      preHandler: async (request) => {
        const bot = await bots.get(callerId(request), (request.params as { id: string }).id);
        if (bot.mode === 'live') await requireStepUp(request);
      },
    },
    async (request, reply) => {
      const data = await bots.clone(await tradingAccountOf(request), request.params.id, request.body?.name);
      return reply.code(201).send(ok(data, 'Bot cloned'));
    },
  );

  app.post(
    '/:id/start',
    {
      ...route({
        summary:
          'Start the bot (409 when it is already running; a live bot needs the password within 5 minutes)',
        description:
          'The bot loads recent history so its strategy starts warm, acts at once on the last closed candle at ' +
          'the price of the start, then on each of its fills and each closed candle. A live bot on a symbol its ' +
          'account already trades (a position, your own orders, another live bot) is refused 409 SYMBOL_SHARED ' +
          'unless `sharePosition` is true (one-way mode: one position per symbol). Paper bots fill on the engine’s broker model (fees, slippage, funding, ' +
          'liquidation) with the budget as their wallet. A running bot is held by one server instance and ' +
          'resumed by another should that one stop.',
        params: BotIdParamsSchema,
        body: StartBotRequestSchema.nullish(),
        response: { 200: BotResponseSchema, ...errors },
      }),
      // Real money: a live bot starts only with the password given in the last 5 minutes (step-up)
      preHandler: async (request) => {
        const bot = await bots.get(callerId(request), (request.params as { id: string }).id);
        if (bot.mode === 'live') await requireStepUp(request);
      },
    },
    async (request) =>
      ok(
        await bots.start(callerId(request), request.params.id, {
          sharePosition: request.body?.sharePosition === true,
        }),
        'Bot started',
      ),
  );

  app.post(
    '/:id/pause',
    route({
      summary: 'Pause the bot: its orders stay, it places no new one (409 when it is not running)',
      description:
        'Its session ends with its orders left standing: a live bot’s on the exchange, where they may fill (its ' +
        'dead-man switch let go, so no countdown cancels them); a paper bot’s live only in its session and go ' +
        'with it. Nothing new is placed until it is started again (`…/start`), which cancels what still stands ' +
        'and lays its orders anew from the price then. A stop cancels them; the kill switch stops paused bots too.',
      params: BotIdParamsSchema,
      response: { 200: BotResponseSchema, ...errors },
    }),
    async (request) => ok(await bots.pause(callerId(request), request.params.id), 'Bot paused'),
  );

  app.post(
    '/:id/stop',
    route({
      summary: 'Stop the bot: its orders are canceled (409 when it is neither running nor paused)',
      params: BotIdParamsSchema,
      response: { 200: BotResponseSchema, ...errors },
    }),
    async (request) => ok(await bots.stop(callerId(request), request.params.id), 'Bot stopped'),
  );

  app.get(
    '/:id/status',
    route({
      summary:
        'The bot and how it is doing: PnL (realized, unrealized, today), position, open orders, uptime',
      params: BotIdParamsSchema,
      response: { 200: BotStatusResponseSchema, ...errors },
    }),
    async (request) => ok(await bots.status(callerId(request), request.params.id), 'Bot status'),
  );

  app.get(
    '/:id/performance',
    route({
      summary: "The bot's candles, fills and PnL curve since its first fill",
      description:
        "Its symbol's closed candles at its interval from its first fill (or first start), the newest 500 at most; " +
        'the fills of its log in that window, oldest first; and its PnL at each close and at the last price now: ' +
        'realized after fees plus the unrealized PnL of the position its fills leave. Fills before the window set ' +
        "the curve's start (`earlierFills`). Funding is not in the curve.",
      params: BotIdParamsSchema,
      response: { 200: BotPerformanceResponseSchema, ...exchangeErrors },
    }),
    async (request) =>
      ok(await app.botPerformance.read(callerId(request), request.params.id), 'Bot performance'),
  );

  app.get(
    '/:id/events',
    route({
      summary: 'The bot’s log, newest first (`before`: an event time, ms, to page back)',
      params: BotIdParamsSchema,
      querystring: BotEventsQuerySchema,
      response: { 200: BotEventsResponseSchema, ...errors },
    }),
    async (request) =>
      ok(
        await bots.events(callerId(request), request.params.id, request.query.limit, request.query.before),
        'Bot log',
      ),
  );
});
