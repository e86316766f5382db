import { ErrorResponseSchema, MessageResponseSchema } from '@kestrel/contracts';
import {
  BotEventsQuerySchema,
  BotEventsResponseSchema,
  BotIdParamsSchema,
  BotListResponseSchema,
  BotResponseSchema,
  BotStatusResponseSchema,
  CloneBotRequestSchema,
  CreateBotRequestSchema,
  UpdateBotRequestSchema,
} from '@kestrel/contracts/bots';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BEARER, callerId } from '../../../route-schemas';
import { requireStepUp } from '../../../step-up';

const tags = ['agents'];
const security = BEARER;
const errors = {
  400: ErrorResponseSchema,
  401: ErrorResponseSchema,
  404: ErrorResponseSchema,
  409: ErrorResponseSchema,
};
/** Routes that read the exchange's symbol rules */
const exchangeErrors = {
  ...errors,
  429: ErrorResponseSchema,
  502: ErrorResponseSchema,
  503: ErrorResponseSchema,
};
const user = callerId;

/**
 * The spec's bot calls (`/api/v1/agents/*`, issue 17): the signed-in user's bots, their settings, start and stop,
 * status and log. A bot's events are also pushed live as `notifications/bot`. Another user's bot is a 404, exactly
 * like an unknown id.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.authenticate);
  const bots = app.botService;

  app.get(
    '/',
    {
      schema: {
        tags,
        security,
        summary: "The user's bots and agents, oldest first",
        response: { 200: BotListResponseSchema, 401: ErrorResponseSchema },
      },
    },
    async (request) => ({ success: true as const, data: await bots.list(user(request)), message: 'Bots' }),
  );

  app.post(
    '/',
    {
      schema: {
        tags,
        security,
        summary: 'Create a bot (stopped)',
        description:
          'The parameters are checked with the strategy’s own schema (GET /api/v1/backtests/strategies lists ' +
          'them; the bot’s leverage replaces the strategy’s leverage parameter), the symbol against the ' +
          'exchange’s list; a 400 names the field and the rule. A live bot on mainnet needs `confirmLive: true`.',
        body: CreateBotRequestSchema,
        response: { 201: BotResponseSchema, ...exchangeErrors },
      },
    },
    async (request, reply) => {
      const data = await bots.create(user(request), request.body);
      return reply.code(201).send({ success: true as const, data, message: 'Bot created' });
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'One bot',
        params: BotIdParamsSchema,
        response: { 200: BotResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await bots.get(user(request), request.params.id),
      message: 'Bot',
    }),
  );

  app.patch(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Change a stopped bot’s settings (a running bot must be stopped first: 409)',
        params: BotIdParamsSchema,
        body: UpdateBotRequestSchema,
        response: { 200: BotResponseSchema, ...exchangeErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await bots.update(user(request), request.params.id, request.body),
      message: 'Bot updated',
    }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security,
        summary: 'Delete a stopped bot and its log (a running bot must be stopped first: 409)',
        params: BotIdParamsSchema,
        response: { 200: MessageResponseSchema, ...errors },
      },
    },
    async (request) => {
      await bots.delete(user(request), request.params.id);
      return { success: true as const, message: 'Bot deleted' };
    },
  );

  app.post(
    '/:id/clone',
    {
      schema: {
        tags,
        security,
        summary: 'A stopped copy of the bot, named “<name> (copy)” unless a name is given',
        params: BotIdParamsSchema,
        body: CloneBotRequestSchema.optional(),
        response: { 201: BotResponseSchema, ...exchangeErrors },
      },
    },
    async (request, reply) => {
      const data = await bots.clone(user(request), request.params.id, request.body?.name);
      return reply.code(201).send({ success: true as const, data, message: 'Bot cloned' });
    },
  );

  app.post(
    '/:id/start',
    {
      schema: {
        tags,
        security,
        summary:
          'Start the bot (409 when it is already running; a live bot needs the password within 5 minutes)',
        description:
          'The bot loads recent history so its strategy starts warm, then trades on each closed candle of its ' +
          'symbol and interval. Paper bots fill on the engine’s broker model (fees, slippage, funding, ' +
          'liquidation) with the budget as their wallet. A running bot is held by one server instance and ' +
          'resumed by another should that one stop.',
        params: BotIdParamsSchema,
        response: { 200: BotResponseSchema, ...errors },
      },
      // Real money: a live bot starts only with the password given in the last 5 minutes (step-up)
      preHandler: async (request) => {
        const bot = await bots.get(user(request), (request.params as { id: string }).id);
        if (bot.mode === 'live') await requireStepUp(request);
      },
    },
    async (request) => ({
      success: true as const,
      data: await bots.start(user(request), request.params.id),
      message: 'Bot started',
    }),
  );

  app.post(
    '/:id/stop',
    {
      schema: {
        tags,
        security,
        summary: 'Stop the bot: its orders are canceled (409 when it is not running)',
        params: BotIdParamsSchema,
        response: { 200: BotResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await bots.stop(user(request), request.params.id),
      message: 'Bot stopped',
    }),
  );

  app.get(
    '/:id/status',
    {
      schema: {
        tags,
        security,
        summary:
          'The bot and how it is doing: PnL (realized, unrealized, today), position, open orders, uptime',
        params: BotIdParamsSchema,
        response: { 200: BotStatusResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await bots.status(user(request), request.params.id),
      message: 'Bot status',
    }),
  );

  app.get(
    '/:id/events',
    {
      schema: {
        tags,
        security,
        summary: 'The bot’s log, newest first (`before`: an event time, ms, to page back)',
        params: BotIdParamsSchema,
        querystring: BotEventsQuerySchema,
        response: { 200: BotEventsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await bots.events(user(request), request.params.id, request.query.limit, request.query.before),
      message: 'Bot log',
    }),
  );
};

export default routes;
