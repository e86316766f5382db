import type { TradingEnvironment } from '@kestrel/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppOptions } from '../../../app';
import { KlineCache } from '../backtest/kline-cache';
import { klineRepository } from '../backtest/kline-repository';
import { LeverageBrackets } from '../backtest/leverage-brackets';
import { botNotice } from '../notifications/bot-notices';
import { orderIntentRepository } from '../orders/order-intent-repository';
import { channelFor } from '../socket/socket-bus';
import type { BotRow } from './bot-repository';
import { botRepository } from './bot-repository';
import { BotRunner } from './bot-runner';
import { BotLog, BotService } from './bot-service';
import { type AgentSessionHooks, BotFault, BotSession } from './bot-session';
import { BotUserStreams } from './bot-user-streams';

declare module 'fastify' {
  interface FastifyInstance {
    /** Bots of the signed-in user and the runtime that runs them (`/api/v1/agents/*`) */
    botService: BotService;
    /** Which bots this instance runs, by lease (tests call `tick` on it) */
    botRunner: BotRunner;
    /** Set by the agents plugin: an AI agent's session hooks (undefined for other bots) */
    botAgentHooks: { factory?: (row: BotRow) => AgentSessionHooks | undefined };
  }
}

/**
 * The bot runtime: the service, the lease runner shared by every instance on the database (started once the app
 * is ready, so the bots that were running resume), paper sessions fed by the live streams' closed candles and the
 * kline cache. The kill switch of /risk stops the user's bots first.
 */
export default fp(
  async (app: FastifyInstance, { config, deps }: AppOptions) => {
    const log = new BotLog(
      {
        db: app.db,
        publish: (target, event) => app.socketBus.publish(target, event),
        clock: app.clock,
        log: app.log,
      },
      // Fills, starts and stops reach the owner's notifications (in-app list, webhooks) from the bot's log
      async (bot, event) => {
        const notice = botNotice(bot, event);
        if (notice) await app.notifications.notify(bot.user_id, notice.event, notice.content);
      },
    );
    const klines = new KlineCache(app.db, klineRepository, app.exchangeAdapter);
    const brackets = new LeverageBrackets({
      exchange: app.exchangeAdapter,
      keysFor: (userId) => app.credentialsService.storedKeys(userId),
      clock: app.clock,
      log: app.log,
    });
    /**
     * A bot lets go of the user's dead-man switch on its symbol: the order manager keeps it armed while another bot
     * of this instance holds it; a live bot of the user on the symbol running on another instance keeps it armed too
     * (that instance's heartbeat refreshes the same countdown)
     */
    const disarmDeadman = async (
      userId: string,
      symbol: string,
      botId: string,
      environment: TradingEnvironment,
    ) => {
      const elsewhere = await botRepository.otherLiveOnSymbol(app.db, userId, symbol, botId, environment);
      await app.orderManager.disarmDeadman(userId, symbol, botId, { keepArmed: elsewhere > 0, environment });
    };
    const userStreams = new BotUserStreams({
      streams: app.exchangeAdapter.streams,
      keysFor: (userId, environment) => app.credentialsService.keysFor(userId, environment),
      log: app.log,
    });
    const agentHooks: FastifyInstance['botAgentHooks'] = {};
    app.decorate('botAgentHooks', agentHooks);
    const runner = new BotRunner({
      db: app.db,
      clock: app.clock,
      logger: app.log,
      log,
      channel: await channelFor(app.db, 'kestrel_bots'),
      ...(deps.botLeaseRenewMs !== undefined ? { renewMs: deps.botLeaseRenewMs } : {}),
      settle: async (row) => {
        if (row.mode !== 'live') return { canceled: 0 };
        const { canceled } = await app.orderManager.cancelAllFor(row.id);
        await disarmDeadman(row.user_id, row.symbol, row.id, row.environment);
        return { canceled: canceled.length };
      },
      createSession: (row, { onFault, onFigures }) =>
        new BotSession(row, {
          db: app.db,
          clock: app.clock,
          log,
          logger: app.log,
          exchange: app.exchangeAdapter,
          loadBars: (key, span) => klines.load(key, span),
          brackets: (userId, symbol) => brackets.forRun(userId, symbol),
          watchClosedCandles: (symbol, interval, listener) => {
            if (!app.liveStreams) {
              throw new BotFault('The exchange offers no live market data: paper bots cannot run on it');
            }
            return app.liveStreams.watchClosedCandles(symbol, interval, listener);
          },
          exchangeEnv: config.exchange.env,
          // The bot's environment, not its owner's current one: it keeps trading where it was created
          orders: {
            place: (input) => app.orderManager.place({ ...input, environment: row.environment }),
            cancel: (userId, clientOrderId) => app.orderManager.cancel(userId, clientOrderId),
            reconcile: (userId, symbol) => app.orderManager.reconcile(userId, symbol, row.environment),
            cancelAllFor: (botId) => app.orderManager.cancelAllFor(botId),
            armDeadman: (userId, symbol, botId) =>
              app.orderManager.armDeadman(userId, symbol, undefined, botId, row.environment),
            disarmDeadman: (userId, symbol, botId) => disarmDeadman(userId, symbol, botId, row.environment),
            setLeverage: (userId, symbol, leverage) =>
              app.orderManager.setLeverage(userId, symbol, leverage, row.environment),
            ofBot: (botId, ids) => orderIntentRepository.ofBot(app.db, botId, ids),
            recentTrades: (userId, symbol) =>
              app.orderManager.recentTrades(userId, symbol, undefined, row.environment),
          },
          onFault,
          onFigures,
          followAccount: (userId, listener) => userStreams.follow(userId, row.environment, listener),
          agentHooks: (r) => agentHooks.factory?.(r),
        }),
    });
    const service = new BotService(
      {
        db: app.db,
        exchange: app.exchangeAdapter,
        environmentOf: (userId) => app.environmentService.current(userId),
        publish: (target, event) => app.socketBus.publish(target, event),
        clock: app.clock,
        log: app.log,
      },
      runner,
      log,
    );
    app.decorate('botService', service);
    app.decorate('botRunner', runner);
    // The kill switch stops every bot of the user before it cancels orders, so none places a new one meanwhile
    app.riskService.stopBots = (userId) => service.stopAll(userId);
    app.addHook('onReady', async () => {
      await runner.start();
    });
    // Before the live streams, the socket bus and the database close (onClose runs in reverse registration order)
    app.addHook('onClose', async () => {
      await runner.close();
      await userStreams.close();
    });
  },
  {
    name: 'bots',
    dependencies: [
      'database',
      'exchange',
      'socket-bus',
      'credentials',
      'live-streams',
      'risk',
      'notifications',
      'environment',
    ],
  },
);
