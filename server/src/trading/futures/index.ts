import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { FuturesService } from './futures-service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signed-in user's futures account: orders, positions, history, PnL and risk */
    futuresService: FuturesService;
  }
}

/**
 * Wires the futures service the /api/futures routes call: it reads keys from the vault and sends every manual
 * order through the order manager (and so through the risk guard)
 */
export default fp(
  async (app: FastifyInstance) => {
    app.decorate(
      'futuresService',
      new FuturesService(
        app.credentialsService,
        app.exchangeAdapter,
        app.clock,
        app.orderManager,
        (environment) => app.exchangeRouter.marketFor(environment),
      ),
    );
  },
  { name: 'futures', dependencies: ['exchange', 'credentials', 'orders'] },
);
