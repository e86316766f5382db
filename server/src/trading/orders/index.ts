import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PluginOptions } from '../../core/plugin-options';
import type { TradingDeps } from '../trading-deps';
import { orderIntentRepository } from './order-intent-repository';
import { OrderManager } from './order-manager';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every order Kestrel sends (manual, bots, kill switch): recorded, risk-checked, sent once, resolved */
    orderManager: OrderManager;
  }
}

/**
 * Wires the order manager before `exchange-services` (FuturesService places manual orders through it). Once the
 * server is ready it reconciles users with unresolved or open intents and starts its sweep, in the background so
 * a slow exchange does not hold the start; `app.orderManagerStarted` is that work, for tests to await
 */
export default fp(
  async (app: FastifyInstance, { deps }: PluginOptions<TradingDeps>) => {
    const manager = new OrderManager({
      db: app.db,
      repo: orderIntentRepository,
      exchange: app.exchangeAdapter,
      credentials: app.credentialsService,
      guard: app.preTrade,
      leverageGuard: app.riskGuard,
      clock: app.clock,
      log: app.log,
      timings: deps.orderTimings,
    });
    app.decorate('orderManager', manager);
    let started: Promise<void> = Promise.resolve();
    app.addHook('onReady', async () => {
      started = manager.start().catch((err: unknown) => {
        app.log.error(
          { err: err instanceof Error ? err.message : String(err) },
          'order manager start failed',
        );
      });
    });
    app.decorate('orderManagerStarted', () => started);
    app.addHook('onClose', async () => {
      await manager.stop();
      await started;
    });
  },
  { name: 'orders', dependencies: ['database', 'exchange', 'credentials', 'risk-guard'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Resolves once the start-up reconciliation has run (tests) */
    orderManagerStarted: () => Promise<void>;
  }
}
