import type { TradingEnvironment } from '@kestrel/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { systemClock } from '../../lib/clock';
import type { PluginOptions } from '../plugin-options';
import { BinanceUsdmAdapter } from './binance-adapter';
import type { ExchangeAdapter } from './exchange-adapter';
import { ExchangeRouter } from './exchange-router';
import { watchKeyRefusals } from './key-refusal-watch';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The exchange, routed per environment (`exchange-router.ts`): a keyed call goes to its key's environment,
     * public market data to testnet's
     */
    exchangeAdapter: ExchangeAdapter;
    exchangeRouter: ExchangeRouter;
  }
}

/**
 * One adapter per configured environment (`config.exchangeTargets`; testnet is the simulator by default), behind
 * the router. Tests pass their own adapters through deps (`exchangeAdapter` stands for testnet's)
 */
export default fp(
  async (app: FastifyInstance, { config, deps }: PluginOptions) => {
    const adapters: Partial<Record<TradingEnvironment, ExchangeAdapter>> = {};
    for (const environment of ['testnet', 'mainnet'] as const) {
      const given =
        deps.exchangeAdapters?.[environment] ??
        (environment === 'testnet' ? deps.exchangeAdapter : undefined);
      const target = config.exchangeTargets[environment];
      if (given) adapters[environment] = given;
      else if (target.configured) {
        adapters[environment] = new BinanceUsdmAdapter({
          restUrl: target.endpoints.restUrl,
          walletUrl: target.endpoints.walletUrl,
          wsUrl: target.endpoints.wsUrl,
          weightLimit: target.endpoints.weightLimit,
          budget: { userShare: config.exchangeUserShare },
          breaker: { failures: config.exchangeBreakerFailures, coolDownMs: config.exchangeBreakerCoolDownMs },
          clock: deps.exchangeClock ?? systemClock,
        });
      }
      app.log.info(
        target.configured
          ? { environment, exchange: target.kind, restUrl: target.endpoints.restUrl }
          : { environment, exchange: null },
        target.configured ? 'exchange adapter configured' : 'environment not configured',
      );
    }
    for (const notice of config.exchangeNotices) app.log.warn(notice);
    const router = new ExchangeRouter(adapters, (environment) => {
      const target = config.exchangeTargets[environment];
      return target.configured ? `the ${environment} exchange has no adapter` : target.reason;
    });
    app.decorate('exchangeRouter', router);
    // Every keyed call crosses here: a key Binance refuses becomes a notice to its owner
    app.decorate(
      'exchangeAdapter',
      watchKeyRefusals(router, (apiKey, reason) => app.keyRefusals.refused(apiKey, reason)),
    );
  },
  { name: 'exchange', dependencies: ['notifications'] },
);
