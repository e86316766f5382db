import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppOptions } from '../../../app';
import { BinanceUsdmAdapter } from './binance-adapter';
import type { ExchangeAdapter } from './exchange-adapter';
import { watchKeyRefusals } from './key-refusal-watch';

declare module 'fastify' {
  interface FastifyInstance {
    exchangeAdapter: ExchangeAdapter;
  }
}

/** The configured exchange (simulator by default); tests pass their own adapter through deps */
export default fp(
  async (app: FastifyInstance, { config, deps }: AppOptions) => {
    const adapter =
      deps.exchangeAdapter ??
      new BinanceUsdmAdapter({
        restUrl: config.exchange.restUrl,
        walletUrl: config.exchange.walletUrl,
        wsUrl: config.exchange.wsUrl,
        weightLimit: config.exchange.weightLimit,
        budget: { userShare: config.exchangeUserShare },
      });
    // Every keyed call crosses here: a key Binance refuses becomes a notice to its owner
    app.decorate(
      'exchangeAdapter',
      watchKeyRefusals(adapter, (apiKey, reason) => app.keyRefusals.refused(apiKey, reason)),
    );
    app.log.info(
      { exchange: config.exchange.env, restUrl: config.exchange.restUrl },
      'exchange adapter configured',
    );
  },
  { name: 'exchange', dependencies: ['notifications'] },
);
