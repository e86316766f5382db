import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppOptions } from '../../../app';
import { AccountReads } from './account-reads';
import { FuturesService } from './futures-service';
import { MarketService } from './market-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed-in user's futures account: orders, positions, history, PnL and risk */
    futuresService: FuturesService;
    /** Public market data and the exchange's status */
    marketService: MarketService;
    /** Per-user account figures of the dashboard and risk pages, kept a few seconds (`account-reads.ts`) */
    accountReads: AccountReads;
  }
}

/**
 * Wires the services the market and futures routes call. Apart from the `exchange` plugin (the adapter), because
 * the futures service reads keys from the vault, which itself tests keys through the adapter, and passes every
 * order through the risk guard
 */
export default fp(
  async (app: FastifyInstance, { config }: AppOptions) => {
    app.decorate('accountReads', new AccountReads());
    app.decorate(
      'marketService',
      new MarketService(async (userId) => {
        const { environment, exchange } = await app.userMarket(userId);
        const target = config.exchangeTargets[environment];
        return { exchange, env: target.configured ? target.endpoints.env : config.exchange.env };
      }),
    );
    app.decorate(
      'futuresService',
      new FuturesService(
        app.credentialsService,
        app.exchangeAdapter,
        app.clock,
        app.riskGuard,
        app.orderManager,
        async (userId) => (await app.userMarket(userId)).exchange,
      ),
    );
  },
  { name: 'exchange-services', dependencies: ['exchange', 'credentials', 'risk-guard', 'orders'] },
);
