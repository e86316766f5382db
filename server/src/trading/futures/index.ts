import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PluginOptions } from '../../core/plugin-options';
import type { TradingDeps } from '../trading-deps';
import { entryProtectionRepository } from './entry-protection-repository';
import { EntryProtections } from './entry-protections';
import { FuturesService } from './futures-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed-in user's futures account: orders, positions, history, PnL and risk */
    futuresService: FuturesService;
    /** TP/SL attached to manual entries, placed once they fill (tests sweep it by hand) */
    entryProtections: EntryProtections;
  }
}

/**
 * Wires the futures service the /api/futures routes call: it reads keys from the vault and sends every manual
 * order through the order manager (and so through the risk guard). The TP/SL follower sweeps once the server is
 * ready and stops before the order manager does
 */
export default fp(
  async (app: FastifyInstance, { deps }: PluginOptions<TradingDeps>) => {
    const protections = new EntryProtections({
      db: app.db,
      repo: entryProtectionRepository,
      orders: app.orderManager,
      exchange: app.exchangeAdapter,
      credentials: app.credentialsService,
      lastPrice: (account, symbol) => app.exchangeRouter.marketFor(account.environment).lastPrice(symbol),
      notifyFailure: (userId, title, message) =>
        app.notifications.notify(userId, 'protection_failed', { title, message }),
      clock: app.clock,
      log: app.log,
      checkMs: deps.protectionCheckMs,
    });
    app.decorate('entryProtections', protections);
    app.decorate(
      'futuresService',
      new FuturesService(
        app.credentialsService,
        app.exchangeAdapter,
        app.clock,
        app.orderManager,
        (environment) => app.exchangeRouter.marketFor(environment),
        protections,
        app.leverageBrackets,
      ),
    );
    app.addHook('onReady', async () => protections.start());
    app.addHook('onClose', async () => protections.stop());
  },
  {
    name: 'futures',
    dependencies: ['exchange', 'exchange-services', 'credentials', 'orders', 'notifications'],
  },
);
