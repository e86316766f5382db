import type { TradingEnvironment } from '@kestrel/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { TradingAccount } from '../../core/environment/trading-account';
import type { ExchangeKeys } from '../../core/exchange/exchange-adapter';
import { exchangeNameOf } from '../../core/exchange/exchange-config';
import { KlineCache } from '../../core/market-data/kline-cache';
import { klineRepository } from '../../core/market-data/kline-repository';
import { botNotice } from '../../core/notifications/bot-notices';
import type { PluginOptions } from '../../core/plugin-options';
import { channelFor } from '../../core/socket/socket-bus';
import { orderIntentRepository } from '../orders/order-intent-repository';
import type { TradingDeps } from '../trading-deps';
import { BotFault } from './bot-fault';
import { STOPPED_FOR_ACCOUNT_DELETION } from './bot-lifecycle';
import { BotLog } from './bot-log';
import { BotPerformanceReader } from './bot-performance';
import { accountOfBot, botRepository, type HedgeSide } from './bot-repository';
import { BotRunner } from './bot-runner';
import { BotService } from './bot-service';
import { BotSession } from './bot-session';
import { BotUserStreams } from './bot-user-streams';
import { CommissionRates } from './commission-rates';
import { BotPlans, type PlanReads } from './order-plan-check';
import { signalRepository } from './signals/signal-repository';
import { SignalService } from './signals/signal-service';
import { StrategyHosts } from './strategy-host';

declare module 'fastify' {
  interface FastifyInstance {
    /** Bots of the signed-in user and the runtime that runs them (`/api/v1/agents/*`) */
    botService: BotService;
    /** Which bots this instance runs, by lease (tests call `tick` on it) */
    botRunner: BotRunner;
    /** Where other domains register the runtime of the bots they host (the agents plugin: kind `agent`) */
    botStrategyHosts: StrategyHosts;
    /** A bot's candles, fills and PnL curve (`GET /api/v1/agents/{id}/performance`) */
    botPerformance: BotPerformanceReader;
    /** A new bot's starting values and its orders before it is saved (`…/suggestion`, `…/plan`) */
    botPlans: BotPlans;
    /** Signals in: bots' webhooks, the signals they received (`/api/v1/signals/{hookId}`, `…/signal-hook`) */
    botSignals: SignalService;
  }
}

/**
 * The bot runtime: the service, the lease runner shared by every instance on the database (started once the app
 * is ready, so the bots that were running resume), paper sessions fed by the live streams' closed candles and the
 * kline cache. The kill switch of /risk stops the user's bots first.
 */
export default fp(
  async (app: FastifyInstance, { config, deps }: PluginOptions<TradingDeps>) => {
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
    // One kline cache per environment: a bot's candles are its environment's, stored under that exchange's name
    const klineCaches = new Map<TradingEnvironment, KlineCache>();
    const klinesOf = (environment: TradingEnvironment) => {
      let cache = klineCaches.get(environment);
      if (!cache) {
        cache = new KlineCache(app.db, klineRepository, app.exchangeRouter.marketFor(environment));
        klineCaches.set(environment, cache);
      }
      return cache;
    };
    const brackets = app.leverageBrackets;
    /**
     * A bot lets go of its account's dead-man switch on its symbol: the order manager keeps it armed while another
     * bot of this instance holds it; a live bot of the account on the symbol running on another instance keeps it
     * armed too (that instance's heartbeat refreshes the same countdown)
     */
    const disarmDeadman = async (account: TradingAccount, symbol: string, botId: string) => {
      const { userId, environment } = account;
      const elsewhere = await botRepository.otherLiveOnSymbol(app.db, userId, symbol, botId, environment);
      await app.orderManager.disarmDeadman(account, symbol, botId, { keepArmed: elsewhere > 0 });
    };
    // Fees paid in BNB priced at the fill's minute, shared by every bot here (one read per minute with fills)
    const commissionRates = new CommissionRates({ exchange: app.exchangeAdapter, logger: app.log });
    const userStreams = new BotUserStreams({
      streams: app.exchangeAdapter.streams,
      keysFor: (account) => app.credentialsService.keysFor(account),
      log: app.log,
    });
    // What runs each bot's strategy per bar, handed to its session when it is built (other domains register theirs)
    const strategyHosts = new StrategyHosts();
    app.decorate('botStrategyHosts', strategyHosts);
    /** The account's position on the symbol as the exchange holds it (one-way mode: one per symbol), signed */
    /** The account's positions on the symbol by side (one in one-way mode, a long and a short in hedge mode) */
    const positionsOn = async (keys: ExchangeKeys, symbol: string) =>
      (await app.exchangeRouter.positions(keys, symbol))
        .filter((p) => p.symbol === symbol)
        .map((p) => ({ side: p.positionSide, amount: Number(p.amount) }));
    const otherLiveBots = (
      { userId, environment }: TradingAccount,
      symbol: string,
      botId: string,
      side?: HedgeSide,
    ) => botRepository.otherLiveOnSymbol(app.db, userId, symbol, botId, environment, side, true);
    /**
     * What a bot's orders are checked with on `account`: its environment's public market, and the account's own
     * leverage brackets when the exchange gave them (the default table stands for none: it would judge another
     * symbol by BTCUSDT's caps)
     */
    const planReads = (account: TradingAccount): PlanReads => {
      const market = app.exchangeRouter.marketFor(account.environment);
      return {
        symbolInfo: (symbol) => market.symbolInfo(symbol),
        lastPrice: (symbol) => market.lastPrice(symbol),
        ticker: (symbol) => market.ticker(symbol),
        accountBrackets: async (symbol) => {
          const read = await brackets.forRun(account, symbol);
          return read.source === 'exchange' ? read.brackets : undefined;
        },
      };
    };
    const runner: BotRunner = new BotRunner({
      db: app.db,
      clock: app.clock,
      logger: app.log,
      log,
      channel: await channelFor(app.db, 'kestrel_bots'),
      ...(deps.botLeaseRenewMs !== undefined ? { renewMs: deps.botLeaseRenewMs } : {}),
      // Called once the app is ready (the runner's rounds), when `signals` below exists
      deliverSignals: (running) => signals.deliverPending(running),
      settle: async (row, orders) => {
        if (row.mode !== 'live') return { canceled: 0, filled: 0 };
        const done = orders === 'cancel' ? await app.orderManager.cancelAllFor(row.id) : undefined;
        await disarmDeadman(accountOfBot(row), row.symbol, row.id);
        return { canceled: done?.canceled.length ?? 0, filled: done?.filled.length ?? 0 };
      },
      createSession: (row, { onFault, onFigures }) =>
        new BotSession(row, strategyHosts.hostFor(row), {
          db: app.db,
          clock: app.clock,
          log,
          logger: app.log,
          // Market data, candles and brackets of the bot's environment, not its owner's current one
          exchange: {
            symbolInfo: (symbol) => app.exchangeRouter.marketFor(row.environment).symbolInfo(symbol),
            lastPrice: (symbol) => app.exchangeRouter.marketFor(row.environment).lastPrice(symbol),
          },
          loadBars: (key, span) => klinesOf(row.environment).load(key, span),
          brackets: (account, symbol) => brackets.forRun(account, symbol),
          watchCandles: (symbol, interval, listener) => {
            if (!app.liveStreams) {
              throw new BotFault('The exchange offers no live market data: paper bots cannot run on it');
            }
            return app.liveStreams.watchCandles(symbol, interval, listener, row.environment);
          },
          exchangeEnv: exchangeNameOf(config.exchangeTargets, row.environment),
          // Every keyed call is handed the session's account (`accountOfBot(row)`, taken once at its start): the
          // bot keeps trading where it was created, not on its owner's current environment
          orders: {
            place: (input) => app.orderManager.place(input),
            cancel: (userId, clientOrderId) => app.orderManager.cancel(userId, clientOrderId),
            reconcile: (account, symbol) => app.orderManager.reconcile(account, symbol),
            cancelAllFor: (botId) => app.orderManager.cancelAllFor(botId),
            armDeadman: (account, symbol, botId) =>
              app.orderManager.armDeadman(account, symbol, undefined, botId),
            disarmDeadman,
            setLeverage: (account, symbol, leverage) =>
              app.orderManager.setLeverage(account, symbol, leverage),
            ofBot: (botId, ids) => orderIntentRepository.ofBot(app.db, botId, ids),
            recentTrades: (account, symbol) => app.orderManager.recentTrades(account, symbol),
            tradesSince: (account, symbol, since) => app.orderManager.tradesSince(account, symbol, since),
            tracker: app.orderManager.tracker,
          },
          countFee: (commission, asset, time) => commissionRates.count(commission, asset, time),
          onFault,
          onFigures,
          followAccount: (account, listener) => userStreams.follow(account, listener),
          actedSignals: (botId, startedAt) => signalRepository.actedInSession(app.db, botId, startedAt),
          // The bot's side of the symbol (hedge mode), else the symbol's one position
          exchangePosition: async (account, symbol, botId, side) => {
            if ((await otherLiveBots(account, symbol, botId, side)) > 0) return undefined;
            const held = await positionsOn(await app.credentialsService.keysFor(account), symbol);
            return held
              .filter((p) => side === undefined || p.side === side)
              .reduce((sum, p) => sum + p.amount, 0);
          },
        }),
    });
    const service: BotService = new BotService(
      {
        db: app.db,
        market: planReads,
        publish: (target, event) => app.socketBus.publish(target, event),
        events: app.events,
        clock: app.clock,
        log: app.log,
        // The keys opened once, the four reads at once
        symbolOnAccount: async (account, symbol, botId, side) => {
          const keys = await app.credentialsService.keysFor(account);
          const [hedgeMode, positions, orders, others, othersOnSide] = await Promise.all([
            app.exchangeRouter.hedgeMode(keys),
            positionsOn(keys, symbol),
            app.exchangeRouter.openOrders(keys, symbol),
            otherLiveBots(account, symbol, botId),
            side === undefined ? Promise.resolve(0) : otherLiveBots(account, symbol, botId, side),
          ]);
          return {
            hedgeMode,
            positions,
            openOrders: orders.map((o) => ({ clientOrderId: o.clientOrderId, side: o.positionSide })),
            otherLiveBots: others,
            otherLiveBotsOnSide: othersOnSide,
          };
        },
      },
      runner,
      log,
    );
    const signals: SignalService = new SignalService({
      db: app.db,
      keyring: app.keyring,
      clock: app.clock,
      log,
      bots: {
        start: (userId, botId) => service.start(userId, botId),
        stop: (userId, botId) => service.stop(userId, botId),
        runsHere: (botId) => runner.runsHere(botId),
        signal: (botId, key, signal) => runner.signal(botId, key, signal),
        wake: (botId) => runner.wake(botId),
      },
    });
    app.decorate('botSignals', signals);
    app.decorate('botService', service);
    app.decorate('botRunner', runner);
    app.decorate('botPlans', new BotPlans(planReads));
    app.decorate(
      'botPerformance',
      new BotPerformanceReader({
        db: app.db,
        clock: app.clock,
        loadBars: (environment, symbol, interval, span) =>
          klinesOf(environment).load(
            { env: exchangeNameOf(config.exchangeTargets, environment), symbol, interval },
            span,
          ),
        lastPrice: async (environment, symbol) =>
          Number(await app.exchangeRouter.marketFor(environment).lastPrice(symbol)),
      }),
    );
    app.events.on('account.deleting', ({ userId }) => service.stopAll(userId, STOPPED_FOR_ACCOUNT_DELETION));
    // The kill switch stops every bot of the user before it cancels orders, so none places a new one meanwhile
    app.events.on('killswitch.requested', async (event) => event.stopped(await service.halt(event.userId)));
    app.addHook('onReady', async () => {
      await runner.start();
    });
    // Before the order manager, the live streams, the socket bus and the database close: onClose hooks run in
    // reverse registration order, and those are dependencies, so always registered before this plugin
    app.addHook('onClose', async () => {
      await runner.close();
      await userStreams.close();
    });
  },
  {
    name: 'bots',
    dependencies: [
      'database',
      'secrets',
      'exchange',
      'exchange-services',
      'orders',
      'socket-bus',
      'credentials',
      'live-streams',
      'risk',
      'notifications',
    ],
  },
);
