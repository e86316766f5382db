import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LeverageBrackets } from '../market-data/leverage-brackets';
import type { PluginOptions } from '../plugin-options';
import { AccountReads } from './account-reads';
import { MarketService } from './market-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Public market data and the exchange's status */
    marketService: MarketService;
    /** Per-user account figures of the dashboard and risk pages, kept a few seconds (`account-reads.ts`) */
    accountReads: AccountReads;
    /** Each symbol's leverage brackets as the account's key reads them, kept an hour (backtests, bots, previews) */
    leverageBrackets: LeverageBrackets;
  }
}

/**
 * Wires the services the market routes and the account pages read through. Apart from the `exchange` plugin (the
 * adapter), because they read each environment's market (`app.exchangeRouter.marketFor`) once the adapters exist,
 * and the brackets read with the user's stored key
 */
export default fp(
  async (app: FastifyInstance, { config }: PluginOptions) => {
    app.decorate('accountReads', new AccountReads());
    app.decorate(
      'leverageBrackets',
      new LeverageBrackets({
        exchange: app.exchangeAdapter,
        keysFor: (account) => app.credentialsService.storedKeys(account),
        clock: app.clock,
        log: app.log,
      }),
    );
    app.decorate(
      'marketService',
      new MarketService((environment) => {
        const exchange = app.exchangeRouter.marketFor(environment);
        const target = config.exchangeTargets[environment];
        return { exchange, env: target.configured ? target.endpoints.env : config.exchange.env };
      }),
    );
  },
  { name: 'exchange-services', dependencies: ['exchange', 'credentials'] },
);
