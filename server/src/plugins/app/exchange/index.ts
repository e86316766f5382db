import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppOptions } from '../../../app';
import { BinanceUsdmAdapter } from './binance-adapter';
import type { ExchangeAdapter } from './exchange-adapter';

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
        breaker: { failures: config.exchangeBreakerFailures, coolDownMs: config.exchangeBreakerCoolDownMs },
      });
    app.decorate('exchangeAdapter', adapter);
    app.log.info(
      { exchange: config.exchange.env, restUrl: config.exchange.restUrl },
      'exchange adapter configured',
    );
  },
  { name: 'exchange' },
);
